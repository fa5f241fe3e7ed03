import type { Provider, SessionCreate } from "@benchwright/sdk";
import { api } from "../api.js";
import { h } from "../dom.js";
import { inlineSessionBody } from "../inline-config.js";
import { problemBox } from "../problem.js";
import { href } from "../router.js";

const INLINE_EXAMPLE = `provider:
  class: existing-vm
  name: lab
default:
  host: 192.0.2.10
  vm_user: ubuntu
  ssh_private_key: |
    -----BEGIN OPENSSH PRIVATE KEY-----
    ...`;

/**
 * Opens a session: on a configuration stored on the server (Form A: a provider and one of its
 * service types, from `GET /providers/`), or on one pasted in (Form B, YAML or JSON). The
 * pasted text may hold credentials: it is sent once and not kept in the page.
 */
export function newSessionForm(providers: Provider[]): HTMLElement {
  const stored = h(
    "select",
    { name: "stored", "data-testid": "stored-provider", "aria-label": "Stored configuration" },
    providers.flatMap((p) =>
      p.service_types.map((service) =>
        h(
          "option",
          { value: JSON.stringify([p.name, service]) },
          `${p.name} / ${service}`,
          p.class ? ` (${[p.class, p.driver, p.region].filter(Boolean).join(", ")})` : "",
        ),
      ),
    ),
  );
  const pasted = h("textarea", {
    name: "inline",
    rows: 9,
    spellcheck: false,
    autocomplete: "off",
    "data-testid": "inline-config",
    "aria-label": "Inline configuration, YAML or JSON",
    placeholder: INLINE_EXAMPLE,
  });
  const kind = (value: string, label: string, checked: boolean) =>
    h("label", { class: "choice" }, h("input", { type: "radio", name: "form", value, checked, onchange: () => sync() }), ` ${label}`);
  const status = h("div", { class: "status" });
  const submit = h("button", { type: "submit", "data-testid": "open-session" }, "Open session");
  const form = h(
    "form",
    { class: "panel", "data-testid": "new-session", onsubmit: (event: Event) => void open(event) },
    h("h2", {}, "New session"),
    h(
      "div",
      { class: "choices" },
      kind("stored", "Stored configuration", providers.length > 0),
      kind("inline", "Paste a configuration (YAML or JSON)", providers.length === 0),
    ),
    h("div", { class: "field", "data-form": "stored" }, stored),
    h(
      "div",
      { class: "field", "data-form": "inline" },
      pasted,
      h(
        "span",
        { class: "hint" },
        "A provider section and one service type section, as a stored configuration file holds them. Credentials are sent to the server once, sealed there, and never shown again.",
      ),
    ),
    h("p", {}, submit),
    status,
  );
  const chosen = () => (form.querySelector<HTMLInputElement>("input[name=form]:checked")?.value ?? "stored") as "stored" | "inline";
  const sync = () => {
    for (const part of form.querySelectorAll<HTMLElement>("[data-form]")) part.hidden = part.dataset.form !== chosen();
  };
  sync();

  async function open(event: Event): Promise<void> {
    event.preventDefault();
    status.replaceChildren();
    let body: SessionCreate;
    try {
      if (chosen() === "inline") body = inlineSessionBody(pasted.value);
      else {
        const [provider, service] = JSON.parse(stored.value) as [string, string];
        body = { provider, service };
      }
    } catch (e) {
      status.replaceChildren(problemBox(e));
      return;
    }
    submit.disabled = true;
    try {
      const session = await api().createSession(body);
      pasted.value = "";
      location.hash = href(["sessions", session.id]);
    } catch (e) {
      status.replaceChildren(problemBox(e));
    } finally {
      submit.disabled = false;
    }
  }
  return form;
}
