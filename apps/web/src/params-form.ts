import type { components } from "@benchwright/sdk";
import { h } from "./dom.js";

type ParamDeclaration = components["schemas"]["ParamDeclaration"];
type ParamValue = components["schemas"]["ParamValue"];

/**
 * What the form says of a workload: its description, which tells what it does with its default
 * params (`Sleeps 5 seconds.` with `seconds` at 5), and so says so when it has params.
 */
export function workloadAbout(w: { workload_description: string; params?: readonly unknown[] }): string {
  return `${w.workload_description}${w.params?.length ? " (this is what it does with the default params below)" : ""}`;
}

/** The input a declaration asks for, with the constraints the browser then checks itself. */
export function inputAttributes(d: ParamDeclaration): Record<string, string | number | boolean | undefined> {
  switch (d.type) {
    case "boolean":
      return { type: "checkbox", checked: d.default === true };
    case "integer":
    case "number":
      return { type: "number", required: true, min: d.min, max: d.max, step: d.type === "integer" ? 1 : "any", value: String(d.default) };
    case "string":
      return { type: "text", required: false, pattern: d.pattern, value: String(d.default) };
  }
}

/**
 * The value of an input as the API takes it: a number for number and integer parameters (the
 * API refuses "2" for an integer), true/false for a boolean. Text that is no number goes as it
 * is, for the API's own message to say what is wrong with it; an empty field is the default.
 */
export function readValue(d: ParamDeclaration, raw: string | boolean): ParamValue | undefined {
  if (d.type === "boolean") return raw === true || raw === "true";
  const text = String(raw);
  if (d.type === "string") return text;
  if (text.trim() === "") return undefined;
  const n = Number(text);
  return Number.isFinite(n) ? n : text;
}

/** The values that differ from the defaults: the others the API fills in as declared. */
export function changedValues(declarations: readonly ParamDeclaration[], values: ReadonlyMap<string, ParamValue | undefined>): Record<string, ParamValue> {
  const out: Record<string, ParamValue> = {};
  for (const d of declarations) {
    const v = values.get(d.name);
    if (v !== undefined && v !== d.default) out[d.name] = v;
  }
  return out;
}

export interface ParamsForm {
  element: HTMLElement;
  /** The values the user changed from the defaults. */
  values(): Record<string, ParamValue>;
  /** Marks the fields the API refused, by name (clears the others). */
  showErrors(errors: ReadonlyMap<string, string>): void;
}

/** One field per declared parameter, with its type, bounds, unit and default. */
export function paramsForm(declarations: readonly ParamDeclaration[]): ParamsForm {
  const inputs = new Map<string, { decl: ParamDeclaration; input: HTMLInputElement | HTMLSelectElement; error: HTMLElement }>();
  const rows = declarations.map((d) => {
    const id = `param-${d.name}`;
    const input: HTMLInputElement | HTMLSelectElement = d.enum?.length
      ? h(
          "select",
          { id, name: d.name },
          d.enum.map((v) => h("option", { value: v, selected: v === d.default }, v)),
        )
      : h("input", { id, name: d.name, ...inputAttributes(d) });
    const error = h("span", { class: "field-error", "data-testid": `param-error-${d.name}`, role: "alert" });
    inputs.set(d.name, { decl: d, input, error });
    const bounds = [d.min !== undefined ? `≥ ${d.min}` : "", d.max !== undefined ? `≤ ${d.max}` : ""].filter(Boolean).join(", ");
    return h(
      "div",
      { class: "field", "data-param": d.name },
      h("label", { for: id }, d.name, d.unit ? h("span", { class: "muted" }, ` (${d.unit})`) : null),
      input,
      h(
        "span",
        { class: "hint" },
        [d.description, `${d.type}${bounds ? `, ${bounds}` : ""}`, `default ${String(d.default)}${d.unit ? ` ${d.unit}` : ""}`].filter(Boolean).join(" · "),
      ),
      error,
    );
  });
  const element = h(
    "fieldset",
    { class: "params", "data-testid": "params" },
    h("legend", {}, "Parameters"),
    rows.length ? rows : h("p", { class: "muted" }, "This workload declares no parameter."),
  );
  return {
    element,
    values() {
      const read = new Map<string, ParamValue | undefined>();
      for (const [name, { decl, input }] of inputs) {
        read.set(name, readValue(decl, input instanceof HTMLInputElement && input.type === "checkbox" ? input.checked : input.value));
      }
      return changedValues(declarations, read);
    },
    showErrors(errors) {
      for (const [name, { input, error }] of inputs) {
        const message = errors.get(name) ?? "";
        error.textContent = message;
        input.setAttribute("aria-invalid", message ? "true" : "false");
      }
    },
  };
}
