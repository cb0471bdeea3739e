// The seed a roll uses, on every page that rolls: the seed typed, or a fresh random one when
// the box is blank. The box stays blank, so that the next roll is random again; each page shows
// the seed used with the result and in its replay link.
function seedOf(input) {
  const text = input.value.trim();
  if (text === "") return Math.floor(Math.random() * 2 ** 31);
  return /^\d+$/.test(text) ? Number(text) : text;
}
