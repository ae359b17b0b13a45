// Errors of /a2a before the SDK answers (no credential, a missing scope, a limit, a body that is
// not JSON): a JSON-RPC 2.0 error object (JSON-RPC §5.1) with the HTTP status of the catalogue's
// code, which the A2A clients read, and the catalogue's code and status in `data`. Errors of the
// protocol itself (an unknown task, bad params) are the SDK's, in its own JSON-RPC codes.
import type { ErrorRenderer } from '../http/render.ts';

export const renderA2a: ErrorRenderer = (err) => ({
  jsonrpc: '2.0',
  id: null,
  error: {
    // -32700 parse error, -32600 invalid request, -32603 internal error (JSON-RPC 2.0 §5.1).
    code: err.status >= 500 ? -32603 : /JSON/.test(err.message) && err.status === 400 ? -32700 : -32600,
    message: err.message,
    data: { code: err.code, status: err.status },
  },
});
