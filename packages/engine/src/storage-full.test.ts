import { describe, expect, it } from "vitest";
import { BenchwrightError } from "./errors.js";
import { isLocalStorageFull, storageFull, storageFullReason } from "./storage-full.js";

const errno = (code: string, syscall?: string) => Object.assign(new Error(`${code}: failed`), { code, ...(syscall ? { syscall } : {}) });

describe("a full storage", () => {
  it("is told by Node's codes, PostgreSQL's disk_full and PGlite's words, in an error or its causes", () => {
    expect(storageFullReason(errno("ENOSPC", "write"))).toBe("No space left on device");
    expect(storageFullReason(errno("EDQUOT", "write"))).toBe("Disk quota exceeded");
    expect(storageFullReason(Object.assign(new Error('could not extend file "base/5/1"'), { code: "53100" }))).toBe("No space left on device");
    expect(storageFullReason(new Error('could not extend file "base/5/16436": No space left on device'))).toBe("No space left on device");
    expect(storageFullReason(new BenchwrightError("internal", "wrapped", {}, { cause: errno("EDQUOT", "open") }))).toBe("Disk quota exceeded");
    for (const other of [errno("ENOENT", "open"), Object.assign(new Error("x"), { code: "53300" }), "ENOSPC", undefined])
      expect(storageFullReason(other)).toBeUndefined();
  });

  it("is this server's own only with Node's syscall: a host's words over SSH are not", () => {
    expect(isLocalStorageFull(errno("ENOSPC", "write"))).toBe(true);
    expect(isLocalStorageFull(errno("EDQUOT", "open"))).toBe(true);
    expect(isLocalStorageFull(new Error("sftp: No space left on device"))).toBe(false);
    expect(isLocalStorageFull(errno("ENOSPC"))).toBe(false);
  });

  it("is the 507 problem, saying why", () => {
    const problem = storageFull(errno("EDQUOT", "write"));
    expect(problem).toMatchObject({ code: "insufficient_storage", status: 507 });
    expect(problem.detail).toMatch(/storage is full \(Disk quota exceeded\)/);
  });
});
