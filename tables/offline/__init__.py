"""The app that opens offline: the shell the service worker keeps, and which pages it may keep
(a player's My tables and their own view of the tables where they sit). static/sw.js and
static/js/offline.js do the keeping in the browser."""
