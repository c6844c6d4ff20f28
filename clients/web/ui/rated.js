// Who may play rated games (feature ratings): signed-in players only (PROTOCOL.md section 5, "Rated games").
// The create form and the seek form both ask here, so that they say the same.

/** Why this page's player may not play rated ("" when they may). */
export function ratedRefusal(client) {
  if (!(client.hello?.features ?? []).includes("ratings")) return "This server keeps no ratings.";
  if (!client.welcome?.account) return "Rated games are for signed-in players.";
  return "";
}
