import { h } from "../dom.js";

/** A state as a coloured label; the colour comes from the state's name (style.css). */
export function stateBadge(state: string, testId?: string): HTMLElement {
  return h("span", { class: `state state-${state}`, "data-testid": testId, "data-state": state }, state);
}
