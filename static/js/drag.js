// Dragging with pointer events (mouse, finger or pen alike): a hand card onto the pile discards
// it, onto another card reorders the hand; the stock or the pile dragged onto the hand draws.
const THRESHOLD = 8;

export class Dragging {
  constructor(options) {
    this.options = options;
    this.active = null;
    this.suppressClick = false;
    options.hand.addEventListener("pointerdown", (event) => this.start(event, "hand"));
    options.stock.addEventListener("pointerdown", (event) => this.start(event, "stock"));
    options.pile.addEventListener("pointerdown", (event) => this.start(event, "pile"));
    window.addEventListener("pointermove", (event) => this.follow(event));
    window.addEventListener("pointerup", (event) => this.drop(event));
    window.addEventListener("pointercancel", () => this.cancel());
  }

  start(event, from) {
    if (event.button !== 0) return;
    const card = from === "hand" ? event.target.closest(".card") : event.currentTarget.querySelector(".card");
    if (!card) return;
    if (from !== "hand" && !this.options.canDraw(from)) return;
    this.active = { from, card, code: card.dataset.card, x: event.clientX, y: event.clientY, ghost: null };
  }

  follow(event) {
    const drag = this.active;
    if (!drag) return;
    if (!drag.ghost) {
      if (Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < THRESHOLD) return;
      drag.ghost = this.makeGhost(drag.card);
      drag.card.classList.add("dragging");
    }
    const box = drag.card.getBoundingClientRect();
    drag.ghost.style.transform = `translate(${event.clientX - box.width / 2}px, ${event.clientY - box.height / 2}px) rotate(-4deg)`;
    const over = this.targetAt(event);
    this.options.pile.classList.toggle("drop-target", drag.from === "hand" && over === this.options.pile && this.options.canDiscard());
  }

  makeGhost(card) {
    const ghost = document.createElement("div");
    ghost.className = "drag-ghost";
    const copy = card.cloneNode(true);
    copy.classList.remove("selected", "dragging", "new");
    copy.removeAttribute("id");
    const box = card.getBoundingClientRect();
    copy.style.width = `${box.width}px`;
    copy.style.height = `${box.height}px`;
    ghost.append(copy);
    document.getElementById("table-app").append(ghost);
    return ghost;
  }

  targetAt(event) {
    const under = document.elementFromPoint(event.clientX, event.clientY);
    if (!under) return null;
    if (this.options.pile.contains(under)) return this.options.pile;
    if (this.options.handArea.contains(under)) return under.closest(".card") || this.options.handArea;
    return null;
  }

  drop(event) {
    const drag = this.active;
    this.active = null;
    if (!drag || !drag.ghost) return;
    const over = this.targetAt(event);
    this.clean(drag);
    this.suppressClick = true;
    setTimeout(() => {
      this.suppressClick = false;
    }, 0);
    if (drag.from === "hand") {
      if (over === this.options.pile) this.options.onDiscard(drag.code);
      else if (over && over.classList.contains("card") && over.dataset.card !== drag.code) {
        this.options.onReorder(drag.code, over.dataset.card);
      } else if (over === this.options.handArea) this.options.onReorder(drag.code, null);
    } else if (over) {
      this.options.onDraw(drag.from);
    }
  }

  cancel() {
    if (this.active) this.clean(this.active);
    this.active = null;
  }

  clean(drag) {
    if (drag.ghost) drag.ghost.remove();
    drag.card.classList.remove("dragging");
    this.options.pile.classList.remove("drop-target");
  }

  // A drag ends with a click on the card it started from; that click must not select it.
  consumeClick() {
    return this.suppressClick;
  }
}
