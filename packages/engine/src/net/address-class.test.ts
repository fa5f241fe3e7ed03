import { describe, expect, it } from "vitest";
import { refusedClass } from "./address-class.js";

describe("refusedClass", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["127.0.0.2", "loopback"],
    ["127.255.255.255", "loopback"],
    ["10.0.0.1", "private"],
    ["10.255.255.255", "private"],
    ["172.16.0.0", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.1", "private"],
    ["100.64.0.0", "shared"],
    ["100.127.255.255", "shared"],
    ["100.100.100.200", "shared"],
    ["169.254.0.1", "link-local"],
    ["169.254.169.254", "metadata"],
    ["0.0.0.0", "unspecified"],
    ["0.1.2.3", "unspecified"],
    ["224.0.0.1", "multicast"],
    ["239.255.255.255", "multicast"],
    ["255.255.255.255", "reserved"],
    ["240.0.0.1", "reserved"],
    ["192.0.0.192", "reserved"],
    ["198.18.0.1", "reserved"],
  ])("IPv4 %s is %s", (address, expected) => {
    expect(refusedClass(address)).toBe(expected);
  });

  it.each([
    "8.8.8.8",
    "1.1.1.1",
    "9.255.255.255",
    "11.0.0.0",
    "100.63.255.255",
    "100.128.0.0",
    "126.255.255.255",
    "128.0.0.0",
    "169.253.255.255",
    "169.255.0.0",
    "172.15.255.255",
    "172.32.0.0",
    "192.167.255.255",
    "192.169.0.0",
    "198.20.0.0",
    "223.255.255.255",
  ])("IPv4 %s is on the Internet", (address) => {
    expect(refusedClass(address)).toBeUndefined();
  });

  it.each([
    ["::1", "loopback"],
    ["[::1]", "loopback"],
    ["0:0:0:0:0:0:0:1", "loopback"],
    ["::", "unspecified"],
    ["fc00::1", "private"],
    ["fdff:ffff::1", "private"],
    ["fd00:ec2::254", "metadata"],
    ["fe80::1", "link-local"],
    ["fe80::1%eth0", "link-local"],
    ["febf:ffff::1", "link-local"],
    ["fec0::1", "private"],
    ["ff02::1", "multicast"],
  ])("IPv6 %s is %s", (address, expected) => {
    expect(refusedClass(address)).toBe(expected);
  });

  it.each([
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["::FFFF:10.1.2.3", "private"],
    ["0:0:0:0:0:ffff:a9fe:a9fe", "metadata"],
    ["[::ffff:169.254.169.254]", "metadata"],
    ["::127.0.0.1", "loopback"],
    ["64:ff9b::192.168.0.1", "private"],
    ["64:ff9b::7f00:1", "loopback"],
    ["2002:7f00:1::", "loopback"],
    ["2002:a9fe:a9fe::1", "metadata"],
  ])("IPv6 %s, standing for an IPv4 address, is %s", (address, expected) => {
    expect(refusedClass(address)).toBe(expected);
  });

  it.each(["2001:4860:4860::8888", "2606:4700::1111", "::ffff:8.8.8.8", "64:ff9b::808:808", "2002:808:808::", "fbff:ffff::1", "fe00::1"])(
    "IPv6 %s is on the Internet",
    (address) => {
      expect(refusedClass(address)).toBeUndefined();
    },
  );

  it("takes what is not an IP literal as refused: names are resolved and their addresses checked", () => {
    expect(refusedClass("localhost")).toBe("reserved");
    expect(refusedClass("127.1")).toBe("reserved");
  });
});
