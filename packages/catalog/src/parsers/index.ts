import type { Parser } from "../types.js";
import { fio } from "./fio.js";
import { iperf3 } from "./iperf3.js";
import { keyvalue } from "./keyvalue.js";
import { stressNg } from "./stress-ng.js";
import { sysbench } from "./sysbench.js";

/** Parsers by the name a definition's `parser` field uses. */
export const parsers: Readonly<Record<string, Parser>> = Object.freeze({
  keyvalue,
  sysbench,
  fio,
  iperf3,
  "stress-ng": stressNg,
});

export function getParser(name: string): Parser | undefined {
  return Object.hasOwn(parsers, name) ? parsers[name] : undefined;
}

export { fio, iperf3, keyvalue, stressNg, sysbench };
