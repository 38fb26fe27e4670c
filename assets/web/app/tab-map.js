// The Map tab: the caches (found or not, each ordered trail's next one), the trails and the
// player's own position on the hunt's map. Opened the first time it shows; on a wide screen it
// stays beside the list.
import { $ } from "../dom.js";
import { HuntMap } from "../map.js";

// "opening" while Leaflet and the map's configuration load; null where there is no map.
let map = null;
let drawn = { caches: [], trails: [] }, me = null;

/// Opens the map, or tells it that it is shown again (Leaflet measures its container then).
export async function open() {
  if (!map) {
    map = "opening";
    map = await HuntMap.make($("map"));
    if (!map) return;
    map.showCaches(drawn.caches, drawn.trails);
    map.showMe(me);
  }
  if (map !== "opening") map?.shown();
}

const ready = () => map && map !== "opening";

/// Draws the caches of the list and the hunt's trails (`GET /api/hunt`'s).
export function showCaches(caches, trails) {
  drawn = { caches, trails };
  if (ready()) map.showCaches(caches, trails);
}

/// Draws the player where they stand.
export function showMe(position) {
  me = position;
  if (ready()) map.showMe(position);
}
