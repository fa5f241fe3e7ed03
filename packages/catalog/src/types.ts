import type { CatalogError } from "./errors.js";

/** One figure a parser read from a tool's output. */
export interface Metric {
  name: string;
  value: number;
  unit: string;
  /** What tells this figure apart from others of the same name (threads, direction). */
  tags?: Record<string, string>;
  /** Whether a higher or a lower figure is the better one, as the tool's definition declares it. */
  better?: Better;
}

type Better = "higher" | "lower";

/** What a figure of one name means, declared by the tool's definition: comparisons and charts need it. */
export interface MetricMeaning {
  unit: string;
  better: Better;
  description?: string;
}

/** Turns the output of a successful run into metrics; returns [] when it finds none (never invents). */
export type Parser = (output: string, context: { tool: string; workload: string }) => Metric[];

export type ParamType = "integer" | "number" | "string" | "boolean";
export type ParamValue = number | string | boolean;

/** A given parameter that a run cannot use. */
export interface ParamProblem {
  /** The parameter's name, as the request named it. */
  name: string;
  message: string;
}

/**
 * A value a client may set for a run (`params` of the execution), declared by the definition;
 * scripts read it as `$BW_PARAM_<NAME>`, always set (to the default when the client gives none).
 */
export interface ParamDeclaration {
  type: ParamType;
  default: ParamValue;
  /** Bounds of integer and number parameters, inclusive. */
  min?: number;
  max?: number;
  /** The values a string parameter may take. */
  enum?: string[];
  /** A regular expression (JavaScript, `u` flag) a string parameter's value must match. */
  pattern?: string;
  description?: string;
  unit?: string;
}

/**
 * A kind of machine a workload runs on (`server`, `client`): how many, and whether it serves.
 * A serving role's run script starts a server, says `bw_ready` once it answers, and runs on
 * until the other roles' run scripts have ended; the runner then stops it, whatever happened.
 */
export interface RoleDefinition {
  count: number;
  serves: boolean;
  description?: string;
}

export interface WorkloadDefinition {
  id: string;
  workload_name: string;
  workload_description: string;
  categories: string[];
  /** Scripts by platform token: `run`, `run_debian`, `run_ubuntu_22_04`...; bash bodies. */
  scripts: Record<string, string>;
  /** Seconds; overrides the tool's defaults for this workload. */
  timeout?: { prepare?: number; run?: number };
  /** Its parameters by name: the tool's, then its own (which may change a tool's, field by field). */
  params: Record<string, ParamDeclaration>;
  /**
   * Its machine roles, in the order machines are given to them (the tool's unless it has its
   * own); absent: one role on every machine, as before roles. Scripts of one role are keyed
   * `<step>@<role>` (`run@server`, `prepare_debian@client`) over the plain `<step>` ones.
   */
  roles?: Record<string, RoleDefinition>;
}

export interface ToolDefinition {
  id: string;
  tool_name: string;
  description: string;
  /** Name of a registered parser (see parsers/index.ts). */
  parser: string;
  /** Default step time limits, seconds. */
  timeout: { prepare: number; run: number };
  /**
   * Scripts by platform token: `install`, `install_debian`, `install_centos`...; `check` tells
   * the tool is present; `lib` (bash functions) is inlined into every script of the tool;
   * `version` (`version_debian`...) prints the installed tool's version on one line.
   */
  scripts: Record<string, string>;
  workloads: WorkloadDefinition[];
  /** The figures its parser reads, by name; a figure of a name not declared here carries no `better`. */
  metrics?: Record<string, MetricMeaning>;
  /**
   * Other ids the tool answers to, with the same workloads: names other catalogs give it
   * (the Benchmarking Suite's later catalog calls `idle` `testing`). A tool's own id wins
   * over another tool's alias.
   */
  aliases?: string[];
  /** The file the definition was read from. */
  source: string;
}

export interface StepScriptOptions {
  /** Platform label of the target, for example `ubuntu_22_04` or `debian_12`. */
  platform: string;
  /** Whether the install script may install system packages (apt/dnf). */
  allowInstall: boolean;
  /** For a workload with roles: the role whose scripts these are. */
  role?: string;
}

/** How a prepared machine is asked which version of a tool it has. */
export interface ToolVersionQuery {
  /** Bash, run on the machine; a version is read only from a run that exits 0. */
  script: string;
  /** The version in what the script printed, or undefined when it names none. */
  read(stdout: string): string | undefined;
  /**
   * Where the version comes from: the definition's own `version` script (a line about the tool
   * itself), or the versions of its install script's packages (`name version`, joined by `, `).
   */
  source: "script" | "packages";
}

/** Told each extra file (or directory) left out of the catalog, and why. */
export type CatalogErrorReporter = (file: string, error: CatalogError) => void;

export interface LoadCatalogOptions {
  /**
   * Directories of extra definitions (`*.yaml`, `*.yml`), read after the built-in tools; a
   * missing directory is skipped, and a definition replaces an earlier one with the same id.
   */
  extraDirs?: string[];
  /**
   * Told about every extra file that is left out: one that cannot be read (a dangling
   * symlink, a directory, no permission), is not a valid definition, or repeats an id of its
   * directory. The catalog loads without it either way; by default nobody is told.
   */
  onError?: CatalogErrorReporter;
  /** Definitions checked elsewhere (a team's, written through the API), after the directories'; one never replaces a tool of the same id. */
  definitions?: ToolDefinition[];
}

/** Tools and workloads of the catalog, and the scripts and parsers they come with. */
export interface Catalog {
  tools(): ToolDefinition[];
  /** The tool of this id, or of this alias. */
  tool(id: string): ToolDefinition | undefined;
  workload(toolId: string, workloadId: string): WorkloadDefinition | undefined;
  /** A complete bash script: prelude, tool install (skipped when present), workload prepare. */
  prepareScript(toolId: string, workloadId: string, opts: StepScriptOptions): string;
  /** A complete bash script running the workload. */
  runScript(toolId: string, workloadId: string, opts: StepScriptOptions): string;
  /** Step time limits in seconds: the workload's own, else the tool's. */
  timeouts(toolId: string, workloadId: string): { prepare: number; run: number };
  /**
   * The parameter values a run of the workload uses: `given` over the declared defaults, or the
   * problems of `given` (unknown names, wrong types, values out of bounds), each one listed.
   */
  params(toolId: string, workloadId: string, given?: Record<string, unknown>): { values: Record<string, ParamValue>; problems: ParamProblem[] };
  /** Metrics from the output of a run, by the tool's parser; [] when it finds none. */
  parse(toolId: string, workloadId: string, output: string): Metric[];
  /**
   * How to read the installed tool's version on a machine of this platform: its `version`
   * script, else its install script's packages; undefined when it has neither (nothing installed).
   */
  toolVersion(toolId: string, platform: string): ToolVersionQuery | undefined;
}
