import { migratedPgliteImage } from "@benchwright/engine";
import { pgliteImageSetup } from "@benchwright/testing/pglite-image-setup";

/** Vitest global setup: the run's one migrated PGlite image, which each test server's database starts from (see `pgliteImageSetup`). */
export default pgliteImageSetup(migratedPgliteImage);
