// Who is at a table of people (the server's `presence`, docs/protocol.md §2): the seats with a
// page open. Each other person's seat shows a badge beside its name ("Here" or "Away", said in
// words; `data-here` for the styles and the tests), and a change is said in the live region by
// the page; a seat the computer stands in for says "computer" instead (`data-stand-in`). A
// table against the computer shows none.

export class Presence {
  /** `t`: the translator; `mark`: whether the badge leads with a mark (● here, ○ away) that
   * stands alone where its row is narrow, the word staying for screen readers (the game's
   * choice, `Board.presenceMark`). */
  constructor(t, mark) {
    this.t = t;
    this.mark = mark;
    this.here = null; // the seats with a page open, once the server has said
    this.seen = new Set(); // the seats this page has seen here at least once
  }

  /** The other people's seats of `state` (a shared table's seats of kind "human"). */
  people(state) {
    if (!state?.shared) return [];
    return state.seats.flatMap((kind, seat) => (kind === "human" && seat !== state.seat ? [seat] : []));
  }

  /** The server says `seats` are here: the other people's seats whose presence changed
   * ([{seat, here, first}]: `first` when this page sees that seat here for the first time,
   * someone arriving rather than coming back; none the first time it speaks). */
  heard(seats, state) {
    const before = this.here;
    this.here = seats;
    const changes = before === null ? [] : this.people(state)
      .filter((seat) => before.includes(seat) !== seats.includes(seat))
      .map((seat) => ({ seat, here: seats.includes(seat), first: !this.seen.has(seat) }));
    for (const seat of seats) this.seen.add(seat);
    return changes;
  }

  /** Fill `node`, the badge beside `seat`'s name: hidden unless `seat` is another person's
   * and the server has said who is here. */
  fill(node, seat, state) {
    if (this.here === null || !this.people(state).includes(seat)) {
      node.hidden = true;
      return;
    }
    const there = this.here.includes(seat);
    // The computer standing in for the seat is its mark: "computer", whoever has a page open.
    const standIn = (state.stand_in ?? []).includes(seat);
    const word = this.t(standIn ? "leaving.mark" : there ? "friend.presence.here" : "friend.presence.away");
    node.hidden = false;
    node.dataset.here = String(there);
    node.dataset.standIn = String(standIn);
    node.title = word;
    if (!this.mark) {
      node.textContent = word;
      return;
    }
    const words = document.createElement("span");
    words.className = "presence-word";
    words.textContent = word;
    const mark = document.createElement("span");
    mark.className = "presence-mark";
    mark.setAttribute("aria-hidden", "true");
    mark.textContent = standIn ? "⚙" : there ? "●" : "○";
    node.replaceChildren(mark, words);
  }

  /** A new badge for `seat` (see fill), or null where none is shown. */
  badge(seat, state) {
    const node = document.createElement("span");
    node.className = "presence";
    this.fill(node, seat, state);
    return node.hidden ? null : node;
  }
}
