// Route schemas are compiled the first time a route uses them, not when the route is added.
// Fastify's own compilers (Ajv for what comes in, fast-json-stringify for what goes out) do the
// compiling, with the server's options; only the moment changes. Compiling every route's schemas
// at start made building the app cost 1.64 s of CPU instead of 0.48 s, most of it for routes that
// instance may not be asked for soon — it counts when an instance restarts behind the balancer,
// and for every test file, which starts its own. A schema the compilers refuse now fails its route's first request
// (500) instead of the start: test/surfaces/http/route-schemas.test.ts compiles every route's
// schemas with these compilers and options, so such a schema fails the suite instead.
// With a compiler factory of its own, Fastify passes a route's `headers` schema as written (it
// lowercases the names only for its default compiler): no route here validates headers by schema.
import ValidatorSelector from '@fastify/ajv-compiler';
import SerializerSelector from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';

/** Ajv's options for what comes in (Fastify's `ajv` server option). */
export const ajvOptions = { customOptions: { removeAdditional: false, coerceTypes: 'array' as const, useDefaults: true, allErrors: false } };

type Factory<Fn> = (externalSchemas: any, options?: any) => (route: unknown) => Fn;

/** Fastify's compiler factory `build`, each route's function made by `wrap` around a getter that compiles on its first call. */
function lazily<Fn, Out>(build: Factory<Fn>, wrap: (compiled: () => Fn) => Out): Factory<Out> {
  return (externalSchemas, options) => {
    const compile = build(externalSchemas, options);
    return (route) => {
      let fn: Fn | undefined;
      return wrap(() => {
        fn ??= compile(route);
        return fn;
      });
    };
  };
}

/** Fastify's `schemaController` option: its default compilers, compiled at first use. */
export const lazySchemaController: FastifyServerOptions['schemaController'] = {
  compilersFactory: {
    // Fastify reads `errors` after a refusal, and passes Ajv's parent data when `schemaEnv` is set (as every Ajv function has it).
    buildValidator: lazily(ValidatorSelector() as Factory<any>, (compiled) => {
      const validate: any = (data: unknown, dataCxt?: unknown) => {
        const fn = compiled();
        const ok = fn(data, dataCxt);
        validate.errors = fn.errors;
        return ok;
      };
      validate.schemaEnv = true;
      return validate;
    }),
    buildSerializer: lazily(SerializerSelector() as Factory<(doc: unknown) => string>, (compiled) => (doc: unknown) => compiled()(doc)),
  },
};
