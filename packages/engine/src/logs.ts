// The step logs live in logs/; this module keeps the older import path working.
export * from "./logs/index.js";
