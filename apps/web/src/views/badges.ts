import { h } from "../dom.js";
import type { StateLook } from "../state-look.js";

/** A state as a coloured label; the colour comes from the state's name (style.css). */
export function stateBadge(state: string, testId?: string): HTMLElement {
  return h("span", { class: `state state-${state}`, "data-testid": testId, "data-state": state }, state);
}

/** A state as state-look.ts reads it (a cancelled step apart from a failed one); `data-state` stays the state itself. */
export function lookBadge(state: string, look: StateLook, testId?: string): HTMLElement {
  return h("span", { class: `state state-${look.tone}`, "data-testid": testId, "data-state": state, "data-tone": look.tone, title: look.hint }, look.text);
}
