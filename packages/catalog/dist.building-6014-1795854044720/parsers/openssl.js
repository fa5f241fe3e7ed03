import { push, toNumber } from "./util.js";
const openssl = (output) => {
  const out = [];
  let sizes = [];
  const SIGN = { "+F2": "rsa", "+F3": "dsa", "+F4": "ecdsa" };
  for (const line of output.split(/\r?\n/)) {
    const f = line.trim().split(":");
    if (f[0] === "+H") sizes = f.slice(1);
    else if (f[0] === "+F" && f.length === sizes.length + 3) {
      f.slice(3).forEach((v, i) => {
        push(out, "bytes_per_second", toNumber(v), "B/s", { algorithm: f[2], block_size: sizes[i] });
      });
    } else if (f[0] in SIGN && f.length === 5) {
      const tags = { algorithm: `${SIGN[f[0]]}${f[2]}` };
      push(out, "signs_per_second", toNumber(f[3]), "signs/s", tags);
      push(out, "verifies_per_second", toNumber(f[4]), "verifies/s", tags);
    } else if (f[0] === "+F6" && f.length === 6) {
      const tags = { algorithm: f[3].toLowerCase() };
      push(out, "signs_per_second", toNumber(f[4]), "signs/s", tags);
      push(out, "verifies_per_second", toNumber(f[5]), "verifies/s", tags);
    }
  }
  return out;
};
export {
  openssl
};
//# sourceMappingURL=openssl.js.map
