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

type Factory<Route, Fn> = (externalSchemas: any, options?: any) => (route: Route) => Fn;

/** A validator that compiles on its first call. Fastify reads `errors` after a refusal and passes Ajv's parent data when `schemaEnv` is set (as every Ajv function has it). */
function lazyValidators(build: Factory<unknown, any>): Factory<unknown, any> {
  return (externalSchemas, options) => {
    const compile = build(externalSchemas, options);
    return (route) => {
      let compiled: any;
      const validate: any = (data: unknown, dataCxt?: unknown) => {
        compiled ??= compile(route);
        const ok = compiled(data, dataCxt);
        validate.errors = compiled.errors;
        return ok;
      };
      validate.schemaEnv = true;
      return validate;
    };
  };
}

/** A serializer that compiles on its first call. */
function lazySerializers(build: Factory<unknown, (doc: unknown) => string>): Factory<unknown, (doc: unknown) => string> {
  return (externalSchemas, options) => {
    const compile = build(externalSchemas, options);
    return (route) => {
      let compiled: ((doc: unknown) => string) | undefined;
      return (doc) => {
        compiled ??= compile(route);
        return compiled(doc);
      };
    };
  };
}

/** Fastify's `schemaController` option: its default compilers, compiled at first use. */
export const lazySchemaController: FastifyServerOptions['schemaController'] = {
  compilersFactory: {
    buildValidator: lazyValidators(ValidatorSelector() as Factory<unknown, any>),
    buildSerializer: lazySerializers(SerializerSelector() as Factory<unknown, (doc: unknown) => string>),
  },
};
