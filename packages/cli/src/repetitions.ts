import type { ExecutionCreate } from "@benchwright/sdk";
import { UsageError } from "./exit-codes.js";

export interface RepetitionOptions {
  repeat?: string;
  untilCv?: string;
  min?: string;
  max?: string;
}

type Plan = NonNullable<ExecutionCreate["repetitions"]>;

function integer(flag: string, text: string): number {
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(n)) throw new UsageError(`${flag} is a whole number, not '${text}'`);
  return n;
}

/**
 * The run's repetition plan from the flags: `--repeat N`, or `--until-cv X` with `--min` and
 * `--max` where given (the server's defaults, 3 and 10, otherwise). The server checks the
 * bounds and answers a 400 naming the field; here only what is not a number, or mixed plans.
 */
export function repetitionPlan(options: RepetitionOptions): Plan | undefined {
  const { repeat, untilCv, min, max } = options;
  if (repeat !== undefined && (untilCv !== undefined || min !== undefined || max !== undefined)) {
    throw new UsageError("--repeat runs a fixed number of times: it does not go with --until-cv, --min or --max");
  }
  if (repeat !== undefined) return { count: integer("--repeat", repeat) };
  if (untilCv === undefined) {
    if (min !== undefined || max !== undefined) throw new UsageError("--min and --max go with --until-cv");
    return undefined;
  }
  const cv = Number(untilCv);
  if (untilCv.trim() === "" || !Number.isFinite(cv)) throw new UsageError(`--until-cv is a number (0.05 for 5%), not '${untilCv}'`);
  return {
    until_cv: cv,
    ...(min === undefined ? {} : { min: integer("--min", min) }),
    ...(max === undefined ? {} : { max: integer("--max", max) }),
  };
}
