// Errors of /a2a before the SDK answers (no credential, a missing scope, a limit, a body that is
// not JSON): the JSON-RPC 2.0 error object of surfaces/http/render.ts, which the A2A clients read.
// Errors of the protocol itself (an unknown task, bad params) are the SDK's, in its own codes.
import { renderJsonRpc } from '../http/render.ts';

export const renderA2a = renderJsonRpc;
