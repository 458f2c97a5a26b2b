export {
  CONTENT_SECURITY_POLICY,
  type ConsoleHandler,
  type ConsoleHandlerOptions,
  type ConsoleRequest,
  type ConsoleResponse,
  createConsoleHandler,
} from './console-handler.js';
