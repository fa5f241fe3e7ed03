import type { GceDoubleOptions } from "./gce-double.js";
/**
 * A stateful stand-in, on 127.0.0.1 over TLS (Azure's SDK sends bearer tokens over https only),
 * for what Benchwright asks of Microsoft Entra (a service principal's token) and of Resource
 * Manager in one resource group: network security groups and their rules, application security
 * groups, public addresses, network interfaces and VMs. Azure's real clients talk to it; it
 * answers as ARM does, with long-running operations (201/202 and an Azure-AsyncOperation to
 * poll), references checked, and resources in use refused deletion. Every public address is
 * `sshHost`, so the provider's SSH really reaches the test's server.
 */
/**
 * As the GCE double's: where public addresses point, how many GETs a VM takes to be
 * provisioned (default 1), and who is told the public keys a new VM gets (Azure's agent writes
 * them to the user's authorized_keys).
 */
export type AzureDoubleOptions = Pick<GceDoubleOptions, "sshHost" | "pollsUntilRunning" | "guestAgent">;
export type AzureOperation = "token" | "putSecurityGroup" | "putSecurityRule" | "putApplicationSecurityGroup" | "putPublicIp" | "putNic" | "putVm" | "getVm" | "deleteVm" | "listVms"
/** Not a call: the next VM made ends up Failed instead of Succeeded. */
 | "vmBoot";
/** How an operation fails: at once (the status), or (`async`) accepted, then its operation Failed, leaving the resource Failed. */
export interface AzureFailure {
    status?: number;
    /** The error code answered: Resource Manager's `error.code`, Entra's `error`. */
    error?: string;
    message?: string;
    async?: boolean;
}
type Tags = Record<string, string>;
interface Rule {
    name: string;
    access: string;
    priority: number;
    protocol: string;
    sourceAddressPrefix?: string;
    sourceApplicationSecurityGroups: string[];
    destinationPortRange: string;
}
interface AzureInventory {
    vms: Array<{
        id: string;
        name: string;
        tags: Tags;
        provisioningState: string;
        nicId?: string;
        size: string;
        publicKeys: string[];
        adminUsername: string;
    }>;
    nics: Array<Omit<Nic, "name"> & {
        id: string;
    }>;
    publicIps: Array<{
        id: string;
        tags: Tags;
        provisioningState: string;
        ipAddress: string;
    }>;
    securityGroups: Array<{
        id: string;
        name: string;
        tags: Tags;
        provisioningState: string;
        rules: Rule[];
    }>;
    applicationSecurityGroups: Array<{
        id: string;
        tags: Tags;
        provisioningState: string;
    }>;
}
export interface AzureDouble {
    tenant: string;
    clientId: string;
    clientSecret: string;
    subscriptionId: string;
    resourceGroup: string;
    location: string;
    /** `<vnet>/<subnet>` of the one subnet the resource group has. */
    subnet: string;
    /** The authority host and the Resource Manager endpoint both: `https://127.0.0.1:<port>`. */
    url: string;
    /** The double's certificate, to trust (CloudProviderOptions.azureCa). */
    ca: string;
    /** A provider section's keys for this double: the service principal, where machines go, and the double as authority and endpoint. */
    provider: Record<string, string>;
    inventory(): AzureInventory;
    /** The next call of `operation` fails; with `after`, that many calls of it succeed first. */
    failNext(operation: AzureOperation, failure?: AzureFailure, after?: number): void;
    /** While held, VMs being made stay Creating. */
    holdBoot(hold: boolean): void;
    /** Makes a VM the way another session (or another tool) would have; returns its id. */
    seedVm(tags: Tags): string;
    /** Makes a network security group letting SSH in from 192.0.2.0/24, as a user would have; returns its name. */
    seedSecurityGroup(name: string): string;
    /** The access tokens handed out (to check they never leak). */
    tokens(): string[];
    stop(): Promise<void>;
}
type Provisioned = {
    provisioningState: string;
};
interface Nic extends Provisioned {
    name: string;
    tags: Tags;
    privateIp: string;
    securityGroupId?: string;
    publicIpId?: string;
    subnetId: string;
    applicationSecurityGroupIds: string[];
    vmId?: string;
}
export declare function startAzureDouble(options: AzureDoubleOptions): Promise<AzureDouble>;
export {};
