// One environment variable as a concern of src/config/ declares it (name, default, parser, one
// line of what it is for), and the reader that turns a concern's variables into its part of
// Config. The reader notes every bad value and goes on, so that one ConfigError names them all.

export class ConfigError extends Error {
  /** Each bad variable's message; one, unless loadConfig found several. */
  readonly problems: string[];
  constructor(messageOrProblems: string | string[]) {
    const problems = typeof messageOrProblems === 'string' ? [messageOrProblems] : messageOrProblems;
    super(problems.join('\n'));
    this.problems = problems;
  }
}

export type Env = Record<string, string | undefined>;

/**
 * How a variable's text becomes its value. `parse` throws a ConfigError naming the variable;
 * `placeholder` stands in for a bad value while the other variables are read, and never leaves
 * loadConfig, which throws when anything was bad.
 */
export interface Parser<T> {
  parse(text: string, name: string): T;
  placeholder: T;
}

/**
 * One environment variable. `default` is the value when unset, as an operator would write it;
 * none: unset means no value, or a default made from other settings (`doc` says which).
 * A name with `<NAME>` stands for a family (`OIDC_<NAME>_ISSUER`).
 */
export interface Variable<T> {
  name: string;
  default?: string;
  parser: Parser<T>;
  /** One line: what it sets; docs/configuration.md says it at length for operators. */
  doc: string;
}

export type Variables = Record<string, Variable<unknown>>;

/** A concern's values, one per variable: a variable with a default always has one. */
export type Values<V extends Variables> = {
  [K in keyof V]: V[K] extends Variable<infer T> ? (V[K] extends { default: string } ? T : T | undefined) : never;
};

/** Reads variables from the environment, collecting the problems of bad values. */
export class Settings {
  readonly problems: string[] = [];
  readonly #env: Env;
  constructor(env: Env) {
    this.#env = env;
  }

  /** A variable's text, trimmed; undefined when unset or empty. */
  text(name: string): string | undefined {
    const value = this.#env[name]?.trim();
    return value === '' ? undefined : value;
  }

  /**
   * The variable's value: from its text, else from `fallback` (a default made from other
   * settings), else from its default. A bad value is noted, and its parser's placeholder stands in.
   */
  read<T>(variable: Variable<T> & { default: string }): T;
  read<T>(variable: Variable<T>, fallback: string): T;
  read<T>(variable: Variable<T>): T | undefined;
  read<T>(variable: Variable<T>, fallback?: string): T | undefined {
    return this.check(() => this.value(variable, fallback), variable.parser.placeholder);
  }

  /** Like `read`, but the first bad value throws its ConfigError (a value others depend on, read whole or not at all). */
  value<T>(variable: Variable<T>, fallback?: string): T | undefined {
    const text = this.text(variable.name) ?? fallback ?? variable.default;
    return text === undefined ? undefined : variable.parser.parse(text, variable.name);
  }

  /** Every variable of a set, by `read`. */
  readAll<V extends Variables>(variables: V): Values<V> {
    const values: Record<string, unknown> = {};
    for (const [key, variable] of Object.entries(variables)) values[key] = this.read(variable);
    return values as Values<V>;
  }

  /** `parse()`, or `placeholder` when it throws a ConfigError, whose problems are noted. */
  check<T>(parse: () => T, placeholder: T): T {
    try {
      return parse();
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      this.problems.push(...error.problems);
      return placeholder;
    }
  }

  /** A problem no single variable's parser sees: two settings that do not go together. */
  problem(message: string): void {
    this.problems.push(message);
  }
}
