import { migratedPgliteImage } from "@benchwright/engine";
import { pgliteImageSetup } from "@benchwright/testing/pglite-image-setup";

/** Vitest global setup: the run's one migrated PGlite image, made by the built engine the fixtures open (see `pgliteImageSetup`). */
export default pgliteImageSetup(migratedPgliteImage);
