/**
 * The store notification URLs of an app, to paste into App Store Connect and the Play Console, under `baseUrl`: the
 * base the operator reached the admin API at, or the one PUBLIC_HOST names (the CLI); '' gives the paths alone.
 */
export function notificationUrls(baseUrl: string, appId: number): { apple: string; google: string } {
  return { apple: `${baseUrl}/notify/v1/apple/${appId}`, google: `${baseUrl}/notify/v1/google/${appId}` };
}
