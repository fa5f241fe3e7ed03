import type { CloudDriverName } from "../../config/provider-config-types.js";
import { AZURE_KINDS } from "./azure-kinds.js";
import { EC2_KINDS } from "./ec2-kinds.js";
import { GCE_KINDS } from "./gce-kinds.js";
import { OPENSTACK_KINDS } from "./openstack-driver.js";

/** The ledger kind of each driver's machines (its `kinds.machine`): what a machine's cost is counted from. */
export const MACHINE_KINDS: Readonly<Record<CloudDriverName, string>> = {
  ec2: EC2_KINDS.instance,
  openstack: OPENSTACK_KINDS.server,
  gce: GCE_KINDS.instance,
  azure: AZURE_KINDS.vm,
};
