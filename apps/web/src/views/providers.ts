import type { Provider, Whoami } from "@benchwright/sdk";
import { api } from "../api.js";
import { caller } from "../caller.js";
import { h } from "../dom.js";
import { problemBox } from "../problem.js";
import { providerDocumentOf, type ProviderFormValues } from "../provider-form.js";
import { sourceText } from "../source-words.js";
import { listTable } from "./list-table.js";

/** The provider configurations with where each comes from and its version; an admin's form to write one. */
export async function providersView(root: HTMLElement, signal: AbortSignal): Promise<void> {
  const body = h("tbody");
  const status = h("div", { class: "status" });
  const show = (providers: Provider[]) =>
    body.replaceChildren(...(providers.length ? providers.map(row) : [h("tr", {}, h("td", { colspan: 5, class: "empty" }, "No provider configuration"))]));
  const [providers, who] = await Promise.all([api().listProviders({ signal }), caller()]);
  show(providers);
  const reload = async () => {
    try {
      show(await api().listProviders({ signal }));
    } catch (error) {
      if (!signal.aborted) status.replaceChildren(problemBox(error));
    }
  };
  root.replaceChildren(
    h("h1", {}, "Providers"),
    h(
      "p",
      { class: "muted" },
      "Built-in and file configurations are read-only; an admin writes the others here, with the API or ",
      h("code", {}, "benchwright provider push"),
      ".",
    ),
    listTable("providers", ["Name", "Class", "Service types", "Source", "Version"], body),
    status,
    mayWrite(who) ? providerForm(reload) : h("p", { class: "muted", "data-testid": "read-only" }, "Only an admin writes provider configurations."),
  );
}

function mayWrite(who: Whoami | undefined): boolean {
  return !who || who.role === "admin";
}

function row(p: Provider): HTMLElement {
  return h(
    "tr",
    { "data-testid": "provider-row", "data-name": p.name },
    h("td", {}, p.name),
    h("td", {}, [p.class, p.driver, p.region].filter(Boolean).join(", ")),
    h("td", {}, p.service_types.join(", ")),
    h("td", { "data-testid": "provider-source" }, sourceText(p.source)),
    h("td", {}, String(p.version ?? "")),
  );
}

/**
 * A local or existing-vm configuration with one service type. The key is read from a file the
 * admin picks and the password typed into a password field: neither is ever shown, and both
 * are cleared once sent, whatever the answer; the answer names the secrets that are set.
 */
function providerForm(reload: () => Promise<void>): HTMLElement {
  const input = (name: string, label: string, attrs: Record<string, string> = {}) =>
    h("label", { class: "field" }, `${label} `, h("input", { name, autocomplete: "off", spellcheck: false, "data-testid": `provider-${name}`, ...attrs }));
  const keyFile = h("input", { type: "file", name: "key", "data-testid": "provider-key", "aria-label": "SSH private key file" });
  const status = h("div", { class: "status" });
  const form = h(
    "form",
    { class: "panel", "data-testid": "new-provider", onsubmit: (event: Event) => void write(event) },
    h("h2", {}, "Write a provider configuration"),
    input("name", "Name", { required: "required", pattern: "[A-Za-z0-9][A-Za-z0-9._-]{0,63}" }),
    h(
      "label",
      { class: "field" },
      "Class ",
      h(
        "select",
        { name: "class", "data-testid": "provider-class" },
        h("option", { value: "existing-vm" }, "existing-vm"),
        h("option", { value: "local" }, "local"),
      ),
    ),
    input("service", "Service type", { placeholder: "default" }),
    input("host", "Host"),
    input("port", "Port", { inputmode: "numeric", placeholder: "22" }),
    input("user", "User"),
    h("label", { class: "field" }, "SSH private key ", keyFile),
    input("password", "or password", { type: "password" }),
    h("p", {}, h("button", { type: "submit", "data-testid": "write-provider" }, "Write")),
    status,
  );
  const field = (name: string) => form.querySelector<HTMLInputElement | HTMLSelectElement>(`[name=${name}]`)!;
  async function write(event: Event): Promise<void> {
    event.preventDefault();
    const values: ProviderFormValues = {
      class: field("class").value as ProviderFormValues["class"],
      serviceType: field("service").value,
      host: field("host").value,
      port: field("port").value,
      user: field("user").value,
      privateKey: keyFile.files?.[0] ? await keyFile.files[0].text() : undefined,
      password: field("password").value,
    };
    // The secrets leave the page's fields before the request goes: nothing shows them again.
    field("password").value = "";
    keyFile.value = "";
    try {
      const written = await api().putProvider(field("name").value, providerDocumentOf(values));
      status.replaceChildren(
        h(
          "p",
          { "data-testid": "provider-written" },
          `${written.name} written, version ${written.version}; secrets set: ${written.secrets_set.join(", ") || "none"}`,
        ),
      );
      await reload();
    } catch (e) {
      status.replaceChildren(problemBox(e));
    }
  }
  return form;
}
