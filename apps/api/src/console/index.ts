export { consoleRoutes, CONSOLE_PATH, DEFAULT_CONSOLE_DIST, type ConsoleRoutesOptions } from './console.routes';
