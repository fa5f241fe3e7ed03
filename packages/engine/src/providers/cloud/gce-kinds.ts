/** The kinds of resource the GCE provider records; apart, so that naming them does not load Google's client. */
export const GCE_KINDS = { instance: "gce:instance", key: "gce:ssh_key", firewall: "gce:firewall" } as const;
