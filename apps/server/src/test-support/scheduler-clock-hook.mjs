// `node --import` this file into a test's server process: its engine's scheduler then runs on
// the clock in $BENCHWRIGHT_TEST_CLOCK_FILE (milliseconds since the epoch, which the test moves
// from tick to tick) instead of the database's now(), and looks every 200 ms. Servers sharing a
// database share that file, as they share the database's clock, and the test drives their ticks
// without waiting for real minutes. Production code has no such hook: it is the engine's
// `scheduler.clock` option, given here by wrapping Engine.open (the server's import of the
// engine is this module's: one module instance per process).
import { readFileSync } from "node:fs";
import { Engine } from "@benchwright/engine";

const file = process.env.BENCHWRIGHT_TEST_CLOCK_FILE;
if (!file) throw new Error("scheduler-clock-hook.mjs needs BENCHWRIGHT_TEST_CLOCK_FILE");
const clock = () => new Date(Number(readFileSync(file, "utf8")));
const open = Engine.open.bind(Engine);
Engine.open = (options) => open({ ...options, scheduler: { ...options.scheduler, clock, wakeMs: 200 } });
