import type { CallOptions, ClientContext } from "../client-context.js";
import type { SweepReport, SweepRequest } from "../types.js";

export interface SweepMethods {
  sweep(body?: SweepRequest, options?: CallOptions): Promise<SweepReport>;
}

export function sweepMethods({ raw, unwrap, init, fieldsHeader }: ClientContext): SweepMethods {
  return {
    sweep: (body, o) => unwrap(raw.POST("/admin/sweep", { body, params: { header: fieldsHeader(o) }, ...init(o) })),
  };
}
