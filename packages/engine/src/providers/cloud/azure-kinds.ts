/** The kinds of resource the Azure provider records; apart, so that naming them does not load Azure's clients. */
export const AZURE_KINDS = {
  vm: "azure:vm",
  /** No resource at Azure: the public key goes on the VM. */
  key: "azure:ssh_key",
  /** The session's network security group, and the application security group its machines join. */
  securityGroup: "azure:security_group",
  nic: "azure:nic",
  publicIp: "azure:public_ip",
} as const;
