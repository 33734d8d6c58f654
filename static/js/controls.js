// Keyboard and gamepad: ← → across the cards, ↑ to the buttons, ↓ back to the cards, Enter
// selects and discards (the cards are buttons), P/Esc menu, M sound, F full screen. A gamepad's
// d-pad does the same, A/X press, Start opens the menu, Back toggles the sound.
const TYPING = new Set(["INPUT", "TEXTAREA", "SELECT"]);

function visible(elements) {
  return [...elements].filter((element) => !element.hidden && element.offsetParent !== null);
}

export class Controls {
  constructor({ hand, actions, onMenu, onSound, onFullscreen }) {
    this.hand = hand;
    this.actions = actions;
    this.onMenu = onMenu;
    this.onSound = onSound;
    this.onFullscreen = onFullscreen;
    this.cardIndex = 0;
    document.addEventListener("keydown", (event) => this.key(event));
    window.addEventListener("gamepadconnected", () => this.pollGamepad());
    this.pressed = new Set();
  }

  cards() {
    return visible(this.hand.querySelectorAll(".card"));
  }

  buttons() {
    return visible(this.actions.querySelectorAll("button"));
  }

  focusCard(index) {
    const cards = this.cards();
    if (!cards.length) return this.focusButton(0);
    this.cardIndex = Math.max(0, Math.min(index, cards.length - 1));
    cards[this.cardIndex].focus();
  }

  focusButton(index) {
    const buttons = this.buttons();
    if (buttons.length) buttons[Math.max(0, Math.min(index, buttons.length - 1))].focus();
  }

  move(direction) {
    const active = document.activeElement;
    const cards = this.cards();
    const buttons = this.buttons();
    const inCards = cards.includes(active);
    const inButtons = buttons.includes(active);
    if (direction === "up") return inButtons ? undefined : this.focusButton(0);
    if (direction === "down") return this.focusCard(this.cardIndex);
    const step = direction === "left" ? -1 : 1;
    if (inButtons) return this.focusButton(buttons.indexOf(active) + step);
    if (inCards) return this.focusCard(cards.indexOf(active) + step);
    return this.focusCard(this.cardIndex);
  }

  key(event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (TYPING.has(event.target.tagName)) return;
    const arrows = { ArrowLeft: "left", ArrowRight: "right", ArrowUp: "up", ArrowDown: "down" };
    if (arrows[event.key]) {
      if (document.querySelector("dialog[open]")) return;
      event.preventDefault();
      this.move(arrows[event.key]);
    } else if (event.key === "p" || event.key === "P" || (event.key === "Escape" && !document.querySelector("dialog[open]"))) {
      event.preventDefault();
      this.onMenu();
    } else if (event.key === "m" || event.key === "M") {
      this.onSound();
    } else if (event.key === "f" || event.key === "F") {
      this.onFullscreen();
    }
  }

  // Buttons: 0 A, 2 X, 8 Back, 9 Start, 12-15 d-pad up, down, left, right (standard mapping).
  pollGamepad() {
    const pads = navigator.getGamepads ? [...navigator.getGamepads()].filter(Boolean) : [];
    if (!pads.length) return;
    const actions = { 12: () => this.move("up"), 13: () => this.move("down"), 14: () => this.move("left"),
      15: () => this.move("right"), 0: () => document.activeElement?.click(), 2: () => document.activeElement?.click(),
      9: () => this.onMenu(), 8: () => this.onSound() };
    for (const [index, action] of Object.entries(actions)) {
      const down = pads.some((pad) => pad.buttons[index]?.pressed);
      if (down && !this.pressed.has(index)) action();
      if (down) this.pressed.add(index);
      else this.pressed.delete(index);
    }
    requestAnimationFrame(() => this.pollGamepad());
  }
}
