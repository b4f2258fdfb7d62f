import type { Session } from 'electron';

/**
 * A till needs no camera, microphone, notifications, geolocation, HID/serial/USB from web content:
 * printers and scanners are reached from the main process. So every permission is refused, including
 * the synchronous checks that would otherwise let a page probe what it could ask for.
 */
export function denyAllPermissions(session: Session): void {
  session.setPermissionRequestHandler((_webContents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  session.setDevicePermissionHandler(() => false);
}
