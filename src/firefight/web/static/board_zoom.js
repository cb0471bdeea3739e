// firefight: a board drawn in SVG that pans and zooms inside its frame (the scenario page).
// Zoom 1 is the whole board across the frame; more zoom makes the drawing wider than the frame,
// which scrolls. The buttons [data-zoom=in|out|fit], Ctrl + wheel (a touchpad's pinch) and a
// two-finger pinch zoom about the point under them; a mouse drags the board to pan (a drag is
// not a click on a hex), a finger pans as the browser scrolls. Narrow screens open zoomed in
// far enough that a hex is a finger's width. `selected()` gives what the buttons keep in view
// (the chosen stack), or nothing. Plain JavaScript, no library.
"use strict";

function boardZoom(wrap, svg, tools, selected) {
  const MAX = 4;
  const STEP = 1.25;
  const TAP = 0.8; // the least share of its drawn size a hex keeps when the board opens
  let zoom = 1;

  const drawnWidth = () => Number(svg.getAttribute("width")) || wrap.clientWidth;

  // Zoom to `next`, keeping the board's point under (x, y) (client pixels; the frame's
  // centre when not given) where it was.
  function set(next, x, y) {
    const frame = wrap.getBoundingClientRect();
    const fx = x === undefined ? wrap.clientWidth / 2 : x - frame.left;
    const fy = y === undefined ? wrap.clientHeight / 2 : y - frame.top;
    const shareX = (wrap.scrollLeft + fx) / Math.max(1, svg.clientWidth);
    const shareY = (wrap.scrollTop + fy) / Math.max(1, svg.clientHeight);
    zoom = Math.min(MAX, Math.max(1, next));
    svg.style.width = `${(zoom * 100).toFixed(1)}%`;
    wrap.scrollLeft = shareX * svg.clientWidth - fx;
    wrap.scrollTop = shareY * svg.clientHeight - fy;
    wrap.dataset.zoom = zoom.toFixed(2);
    for (const button of tools.querySelectorAll("[data-zoom]")) {
      const way = button.dataset.zoom;
      button.disabled = (way === "in" && zoom >= MAX) || (way !== "in" && zoom <= 1);
    }
  }

  // Scroll the frame, not the page, until `node` (a counter, a hex) is inside it.
  function reveal(node) {
    if (!node) return;
    const box = node.getBoundingClientRect();
    const frame = wrap.getBoundingClientRect();
    if (box.left < frame.left || box.right > frame.right) {
      wrap.scrollLeft += (box.left + box.right) / 2 - (frame.left + frame.right) / 2;
    }
    if (box.top < frame.top || box.bottom > frame.bottom) {
      wrap.scrollTop += (box.top + box.bottom) / 2 - (frame.top + frame.bottom) / 2;
    }
  }

  // The zoom a board opens at: whole, unless its hexes would shrink below TAP of their size.
  function opening() {
    const fit = wrap.clientWidth / drawnWidth();
    return fit < TAP ? TAP / fit : 1;
  }

  tools.addEventListener("click", (event) => {
    const button = event.target.closest("[data-zoom]");
    if (!button) return;
    const way = button.dataset.zoom;
    set(way === "in" ? zoom * STEP : way === "out" ? zoom / STEP : 1);
    if (selected) reveal(selected()); // the chosen stack stays in the frame
  });
  wrap.addEventListener("keydown", (event) => {
    if (event.key === "+" || event.key === "=") set(zoom * STEP);
    else if (event.key === "-") set(zoom / STEP);
    else return;
    event.preventDefault();
  });
  wrap.addEventListener("wheel", (event) => {
    if (!event.ctrlKey && !event.metaKey) return; // a plain wheel scrolls
    event.preventDefault();
    set(zoom * Math.exp(-event.deltaY / 300), event.clientX, event.clientY);
  }, { passive: false });

  // Pointers: two fingers pinch; a mouse drags to pan.
  const down = new Map();
  let pinch = null;
  let drag = null;
  let dragged = false;
  const spread = () => {
    const [a, b] = [...down.values()];
    return [Math.hypot(a.x - b.x, a.y - b.y), (a.x + b.x) / 2, (a.y + b.y) / 2];
  };
  wrap.addEventListener("pointerdown", (event) => {
    down.set(event.pointerId, { x: event.clientX, y: event.clientY });
    dragged = false;
    if (down.size === 2) pinch = { distance: spread()[0], zoom };
    if (event.pointerType === "mouse" && event.button === 0) {
      drag = { x: event.clientX, y: event.clientY, left: wrap.scrollLeft, top: wrap.scrollTop };
    }
  });
  wrap.addEventListener("pointermove", (event) => {
    if (!down.has(event.pointerId)) return;
    down.set(event.pointerId, { x: event.clientX, y: event.clientY });
    if (pinch && down.size === 2) {
      const [distance, x, y] = spread();
      set(pinch.zoom * (distance / Math.max(1, pinch.distance)), x, y);
      return;
    }
    if (!drag) return;
    const dx = event.clientX - drag.x;
    const dy = event.clientY - drag.y;
    if (!dragged && Math.hypot(dx, dy) < 5) return;
    dragged = true;
    wrap.scrollLeft = drag.left - dx;
    wrap.scrollTop = drag.top - dy;
  });
  const up = (event) => {
    down.delete(event.pointerId);
    if (down.size < 2) pinch = null;
    if (!down.size) drag = null;
  };
  for (const name of ["pointerup", "pointercancel", "pointerleave"]) wrap.addEventListener(name, up);
  wrap.addEventListener("click", (event) => {
    if (!dragged) return;
    dragged = false; // the end of a drag: no hex is chosen
    event.stopPropagation();
    event.preventDefault();
  }, true);

  set(opening());
  return { reveal, refit: () => set(opening()) };
}
