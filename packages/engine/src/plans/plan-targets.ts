import type { components, SessionCreate } from "@benchwright/contract";
import type { ProviderConfigFile } from "../config/provider-config.js";
import { sessionConfigOf } from "../sessions/session-config.js";
import { problemsOf, type PlanProblem } from "./plan-problems.js";

type TargetCreate = components["schemas"]["PlanTargetCreate"];
type Target = components["schemas"]["PlanTarget"];

/** What a plan's targets are checked against: the server's stored configurations and its bounds, as a session's are. */
export interface TargetLimits {
  providerConfigs: () => ProviderConfigFile[];
  maxStepTimeoutS: number;
}

/** A plan's targets, each `service: "*"` expanded; `inline` holds the inline configurations by label, to be stored sealed. */
export interface CheckedTargets {
  targets: Target[];
  /** Each label as given, and the labels of the targets it stands for (none when it cannot be used). */
  expanded: Map<string, string[]>;
  inline: Record<string, unknown>;
  problems: PlanProblem[];
}

/**
 * Checks each target as `POST /sessions/` would check it (the same code: sessionConfigOf), and
 * expands `service: "*"` into one target per service type of the stored configuration, each
 * labelled `<label>/<service type>`.
 */
export function checkTargets(given: readonly TargetCreate[], limits: TargetLimits): CheckedTargets {
  const out: CheckedTargets = { targets: [], expanded: new Map(), inline: {}, problems: [] };
  given.forEach((target, i) => {
    const at = `/body/targets/${i}`;
    if (out.expanded.has(target.label)) {
      out.problems.push({
        path: `${at}/label`,
        message: `is '${target.label}', the label of a target before it: labels are unique`,
        code: "validation_failed",
      });
      return;
    }
    const labels: string[] = [];
    out.expanded.set(target.label, labels);
    if ((target.provider === undefined) === (target.config === undefined)) {
      out.problems.push({ path: at, message: "give provider (a stored configuration) or config (an inline one), one of them", code: "validation_failed" });
      return;
    }
    const bodies = sessionBodies(target, limits);
    if (bodies.length === 0)
      out.problems.push({ path: `${at}/service`, message: `is '*', and '${target.provider}' has no service type`, code: "unknown_service_type" });
    for (const [label, body] of bodies) {
      // A `*` target's expansion (`lab/default`) may make the label of a target given before it.
      if (label !== target.label && (out.expanded.has(label) || out.targets.some((t) => t.label === label))) {
        out.problems.push({ path: `${at}/label`, message: `makes '${label}', the label of a target before it: labels are unique`, code: "validation_failed" });
        continue;
      }
      try {
        const { config } = sessionConfigOf(body, limits);
        const inline = "config" in body;
        out.targets.push({ label, provider: config.name, service: config.serviceType, class: config.class, inline });
        if (inline) out.inline[label] = body.config;
        labels.push(label);
      } catch (e) {
        out.problems.push(...problemsOf(e, at, FIELD_OF[(e as { code?: string }).code ?? ""] ?? ""));
      }
    }
  });
  return out;
}

/** Where a refusal without fields of its own points: the name that is unknown. */
const FIELD_OF: Record<string, string> = { unknown_provider: "/provider", unknown_service_type: "/service" };

/** The session bodies a target stands for, with their labels: one per service type for `*`. */
function sessionBodies(target: TargetCreate, limits: TargetLimits): Array<[string, SessionCreate]> {
  if (target.config !== undefined) return [[target.label, { config: target.config }]];
  const provider = target.provider as string;
  if (target.service !== "*") return [[target.label, { provider, service: target.service }]];
  const file = limits.providerConfigs().find((c) => c.name === provider);
  // An unknown provider: sessionConfigOf says so, as it says it to a session.
  if (!file) return [[target.label, { provider }]];
  return Object.keys(file.services).map((service) => [`${target.label}/${service}`, { provider, service }]);
}
