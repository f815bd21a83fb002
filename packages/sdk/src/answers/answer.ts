/** What a game server answers the platform: an HTTP status and a JSON body (none for 204). */
export interface Answer<B = unknown> {
  status: number;
  body?: B;
}
