import { migratedPgliteImage } from "@benchwright/engine";
import { pgliteImageSetup } from "@benchwright/testing/pglite-image-setup";

/** Vitest global setup: the run's one migrated PGlite image, which each real server's engine starts from (see `pgliteImageSetup`). */
export default pgliteImageSetup(migratedPgliteImage);
