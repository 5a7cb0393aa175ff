// The JSON schema of augur.toml, for TOML editors that validate with one
// (Even Better TOML in VS Code, through package.json's tomlValidation;
// taplo elsewhere). It is made from what is already written down once:
// the types, defaults, enums and descriptions of the client settings in
// package.json, and the mapping from client setting to augur.toml key in
// docs/configuration.md. A test checks that the schema in schemas/ is
// what this makes, and the Go tests that it names exactly the keys
// augur.toml accepts.

/** A JSON schema (the subset written here). */
export type Schema = Record<string, unknown>;

/** The keys of a [[target]] table that are not analysis settings. */
export const targetProperties: Record<string, Schema> = {
  name: { type: 'string', description: 'how messages and progress reports name the target; must be unique' },
  sources: {
    type: 'array',
    items: { type: 'string' },
    minItems: 1,
    description: 'the translation units (required), relative to augur.toml',
  },
  args: { type: 'array', items: { type: 'string' }, description: "the program's arguments after argv[0]" },
  argv0: { type: 'string', description: 'argv[0]' },
  stdin: { type: 'string', description: "the program's standard input" },
  'stdin-file': { type: 'string', description: 'a file holding the standard input (instead of stdin), inside the workspace' },
  files: {
    type: 'array',
    items: { type: 'string' },
    description: 'files the program may open, as "PATH" or "NAME=PATH", inside the workspace',
  },
  env: {
    type: 'array',
    items: { type: 'string', pattern: '^[^=]+=' },
    description: "NAME=VALUE entries set in the program's environment",
  },
  clients: {
    type: 'array',
    items: { type: 'string' },
    description:
      'client programs run beside the program, as a test harness runs a server\'s clients: each its sources, then its arguments, as "client.c -p 11311"; they start when the program first waits, and the run ends when it exits or every client has',
  },
};

/** Settings written as a duration or a size: a string, or 0 for none. */
const stringOrNumber = new Set(['timeout', 'explore-time', 'max-memory', 'debounce']);

/**
 * Reads docs/configuration.md's settings table: augur.toml key -> client
 * setting (without the "augur." prefix).
 */
export function tomlKeys(configurationMd: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of configurationMd.matchAll(/^\| `([a-z-]+)` \|.*\| `augur\.([A-Za-z]+)` \|$/gm)) {
    out.set(m[1], m[2]);
  }
  return out;
}

/** Makes the schema of augur.toml. */
export function tomlSchema(pkg: { contributes: { configuration: { properties: Record<string, Schema> } } }, configurationMd: string): Schema {
  const props = pkg.contributes.configuration.properties;
  const settings: Record<string, Schema> = {};
  for (const [key, client] of tomlKeys(configurationMd)) {
    const p = props[`augur.${client}`];
    if (!p) {
      throw new Error(`docs/configuration.md maps ${key} to augur.${client}, which package.json does not declare`);
    }
    const s: Schema = {};
    for (const field of ['type', 'items', 'enum', 'minimum', 'default', 'description']) {
      if (p[field] !== undefined) {
        s[field] = p[field];
      }
    }
    if (stringOrNumber.has(key)) {
      s.type = ['string', 'integer'];
    }
    settings[key] = s;
  }
  const sorted = (o: Record<string, Schema>) => Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: 'augur.toml',
    description:
      "augur's workspace configuration: analysis settings at the top, programs in [[target]] tables (docs/configuration.md).",
    type: 'object',
    additionalProperties: false,
    properties: {
      ...sorted(settings),
      files: {
        type: 'array',
        items: { type: 'string' },
        description:
          'files every program of the workspace may open, as "PATH" or "NAME=PATH", inside the workspace; a target\'s own files add to them',
      },
      target: {
        type: 'array',
        description: 'the programs to analyze; a [[target]] may also set any analysis setting for itself',
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['sources'],
          properties: { ...targetProperties, ...sorted(settings) },
        },
      },
    },
  };
}
