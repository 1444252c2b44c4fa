/**
 * The schemas in schemas/ are valid JSON Schema 2020-12 documents and compile in strict mode:
 * the suite compiles each on first use and skips the meta-schema check at run time, so this is
 * where a broken schema file is caught.
 */
import { describe, expect, it } from 'vitest';
import Ajv2020Module from 'ajv/dist/2020.js';
import { loadSchema, SCHEMA_NAMES, validateSchema } from '../../src/schema.ts';

const Ajv2020 = Ajv2020Module.default;

describe('schema files', () => {
  for (const name of SCHEMA_NAMES) {
    it(`${name}.schema.json is valid against the 2020-12 meta-schema and compiles in strict mode`, () => {
      const meta = new Ajv2020({ strict: false });
      expect(meta.validateSchema(loadSchema(name)), JSON.stringify(meta.errors)).toBe(true);
      // Compiling is what the first validation does; a schema that does not compile throws.
      expect(() => validateSchema(name, null)).not.toThrow();
    });
  }
});
