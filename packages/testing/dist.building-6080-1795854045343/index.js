export { startSshd, sshTargetOf } from "./sshd.js";
export { createPasswordUser } from "./system-user.js";
export { createEc2Double } from "./ec2-double.js";
export { startGceDouble } from "./gce-double.js";
export { startAzureDouble } from "./azure-double.js";
export { credentialEcho, startOpenStackDouble, } from "./openstack-double.js";
export { createTestSchema, TEST_POSTGRES_URL } from "./postgres.js";
export { startTcpProxy } from "./tcp-proxy.js";
export { startCountingListener } from "./counting-listener.js";
export { bytesOf, hashOf, randomSizes, writeAll } from "./log-data.js";
export { loadedAfter } from "./loaded-after.js";
export { serverDirs } from "./server-dirs.js";
export { closedPort, createMemoryLedger, leaks, loginWorks, testContext, TestSession, } from "./cloud-session.js";
export { trendToolDefinition } from "./trend-tool.js";
//# sourceMappingURL=index.js.map