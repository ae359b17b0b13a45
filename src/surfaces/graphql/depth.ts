// How deep a query reads the record: a validation rule (GraphQL §5, run with the specified rules,
// so its verdict is kept with the document) counting the levels of data fields only. Introspection
// (`__schema`, `__type`, `__typename`: GraphQL §4.2) reads the schema held in memory, not the
// database, and is bounded on its own terms: graphql-js's MaxIntrospectionDepthRule (a specified
// rule) stops the recursive `fields`/`interfaces`/`possibleTypes` lists, the parser's token limit
// bounds the rest, and ./cost.ts gives each introspection field a fixed cost. So the standard
// introspection query (graphql-js's getIntrospectionQuery, 15 levels of `ofType`) is answered
// while a data query nesting past MAX_DEPTH is refused before it runs.
import {
  type ASTVisitor,
  type FragmentDefinitionNode,
  GraphQLError,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
} from 'graphql';

export const MAX_DEPTH = 8;

/** Whether a field is one of GraphQL's meta-fields (§4.2: names starting with `__` are reserved). */
const isMetaField = (name: string) => name.startsWith('__');

interface Fragments {
  of(name: string): FragmentDefinitionNode | undefined;
  /** Each fragment's depth once known: a fragment spread many times is measured once. */
  depths: Map<string, number>;
  visiting: Set<string>;
}

function dataDepth(set: SelectionSetNode | undefined, fragments: Fragments): number {
  if (!set) return 0;
  let deepest = 0;
  for (const selection of set.selections) {
    let depth = 0;
    if (selection.kind === Kind.FIELD) {
      if (isMetaField(selection.name.value)) continue;
      depth = 1 + dataDepth(selection.selectionSet, fragments);
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      depth = dataDepth(selection.selectionSet, fragments);
    } else {
      // A cycle of fragments is refused by NoFragmentCyclesRule (GraphQL §5.5.2.2); not followed here.
      const name = selection.name.value;
      const known = fragments.depths.get(name);
      if (known !== undefined) depth = known;
      else {
        const fragment = fragments.of(name);
        if (!fragment || fragments.visiting.has(name)) continue;
        fragments.visiting.add(name);
        depth = dataDepth(fragment.selectionSet, fragments);
        fragments.visiting.delete(name);
        fragments.depths.set(name, depth);
      }
    }
    deepest = Math.max(deepest, depth);
  }
  return deepest;
}

/** Refuses an operation whose data fields nest deeper than MAX_DEPTH. */
export function DataDepthRule(context: ValidationContext): ASTVisitor {
  const fragments: Fragments = { of: (name) => context.getFragment(name) ?? undefined, depths: new Map(), visiting: new Set() };
  return {
    OperationDefinition(node: OperationDefinitionNode) {
      const depth = dataDepth(node.selectionSet, fragments);
      if (depth > MAX_DEPTH) {
        const name = node.name?.value ?? 'The';
        context.reportError(
          new GraphQLError(
            `The query nests too deep: ${name} query depth (${depth}) exceeds the query depth limit of ${MAX_DEPTH} (introspection fields are not counted).`,
            { nodes: node },
          ),
        );
      }
      return false;
    },
  };
}
