import { app } from 'electron';

export function appVersion(): string {
  return app.getVersion();
}
