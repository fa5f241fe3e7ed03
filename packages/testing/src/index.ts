export { startSshd, sshTargetOf, type SshdHarness, type SshdOptions } from "./sshd.js";
export { createNetNamespace, type NetNamespace } from "./netns.js";
export { createPasswordUser, type PasswordUser } from "./system-user.js";
// The EC2 double is `@benchwright/testing/ec2-double`: it loads the AWS SDK and its mock (a second of
// CPU), which every other test file importing this index would pay.
export { startGceDouble, type GceDouble, type GceOperation } from "./gce-double.js";
export { startAzureDouble, type AzureDouble, type AzureFailure, type AzureOperation } from "./azure-double.js";
export {
  credentialEcho,
  startOpenStackDouble,
  type OpenStackDouble,
  type OpenStackFailure,
  type OpenStackOperation,
} from "./openstack-double.js";
export { createTestSchema, TEST_POSTGRES_URL } from "./postgres.js";
export { startTcpProxy, type TcpProxy } from "./tcp-proxy.js";
export { startCountingListener, type CountingListener } from "./counting-listener.js";
export { bytesOf, hashOf, randomSizes, writeAll } from "./log-data.js";
export { loadedAfter } from "./loaded-after.js";
export { serverDirs, type ServerDirs } from "./server-dirs.js";
export {
  closedPort,
  createMemoryLedger,
  leaks,
  loginWorks,
  testContext,
  TestSession,
  type MemoryLedger,
} from "./cloud-session.js";
export { trendToolDefinition } from "./trend-tool.js";
