import type { Migration } from "./migration.js";
import { migration as m001 } from "./001.js";
import { migration as m002 } from "./002.js";
import { migration as m003 } from "./003.js";
import { migration as m004 } from "./004.js";
import { migration as m005 } from "./005.js";
import { migration as m006 } from "./006.js";
import { migration as m007 } from "./007.js";
import { migration as m008 } from "./008.js";
import { migration as m009 } from "./009.js";
import { migration as m010 } from "./010.js";
import { migration as m011 } from "./011.js";
import { migration as m012 } from "./012.js";
import { migration as m013 } from "./013.js";
import { migration as m014 } from "./014.js";
import { migration as m015 } from "./015.js";
import { migration as m016 } from "./016.js";
import { migration as m017 } from "./017.js";
import { migration as m018 } from "./018.js";
import { migration as m019 } from "./019.js";
import { migration as m020 } from "./020.js";
import { migration as m021 } from "./021.js";
import { migration as m022 } from "./022.js";
import { migration as m023 } from "./023.js";
import { migration as m024 } from "./024.js";
import { migration as m026 } from "./026.js";

/** Every migration, in the order they apply: one file each, named by its id. */
export const MIGRATIONS: ReadonlyArray<Migration> = [
  m001,
  m002,
  m003,
  m004,
  m005,
  m006,
  m007,
  m008,
  m009,
  m010,
  m011,
  m012,
  m013,
  m014,
  m015,
  m016,
  m017,
  m018,
  m019,
  m020,
  m021,
  m022,
  m023,
  m024,
  m026,
];
