// Partnerships: seats 0+2 against 1+3, told apart by colour and by the shape of the seat's border.

export const TEAMS = ["a", "b"];
/** The team of a seat, by letter. */
export const teamOf = (seat) => TEAMS[seat % 2];
/** A team's name by its index in a score list (0: seats 0+2, shown as 1+3). */
export const teamName = (index) => (index === 0 ? "Team A (seats 1+3)" : "Team B (seats 2+4)");
