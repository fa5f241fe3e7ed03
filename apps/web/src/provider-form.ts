import type { ProviderConfigDocument } from "@benchwright/sdk";

/** What the dashboard's form for a provider configuration gathers: one service type, one host or none. */
export interface ProviderFormValues {
  class: "local" | "existing-vm";
  serviceType: string;
  host?: string;
  port?: string;
  user?: string;
  /** The key file's text (read from the chosen file, never shown) or a password: at most one is sent. */
  privateKey?: string;
  password?: string;
}

/**
 * The document `PUT /providers/{name}` takes, from the form's values: blank fields left out,
 * so the server names what is missing (every problem in one answer) rather than the page.
 */
export function providerDocumentOf(v: ProviderFormValues): ProviderConfigDocument {
  const service: Record<string, unknown> = {};
  const set = (key: string, value: string | number | undefined) => {
    if (value !== undefined && value !== "") service[key] = value;
  };
  if (v.class === "existing-vm") {
    set("host", v.host?.trim());
    set("port", v.port?.trim() ? Number(v.port.trim()) : undefined);
    set("vm_user", v.user?.trim());
    set("ssh_private_key", v.privateKey);
    set("password", v.privateKey ? undefined : v.password);
  }
  return { provider: { class: v.class }, [v.serviceType.trim() || "default"]: service };
}
