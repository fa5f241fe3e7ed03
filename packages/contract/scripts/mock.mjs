// `npm run mock`: the contract's examples served by Prism on 127.0.0.1:4010, under /api/v1.
import { startPrism } from "../dist/prism.js";

const prism = await startPrism({ mode: "mock", port: Number(process.env.PORT ?? 4010) });
console.log(`Prism mock of the Benchwright contract: ${prism.url}/api/v1/`);
const stop = () => prism.stop().then(() => process.exit(0));
process.once("SIGINT", stop);
process.once("SIGTERM", stop);
