// landlord-dsl documentation: on a phone, every table is shown one row per card, each cell
// labelled with its column's heading (extra.css); this gives each cell that label.
function labelTableCells() {
  document.querySelectorAll("article table").forEach(function (table) {
    var heads = Array.prototype.map.call(table.querySelectorAll("thead th"), function (th) {
      return th.textContent.trim();
    });
    if (!heads.length || table.closest(".ll-compare")) return;  // a comparison stays a table (extra.css)
    table.setAttribute("data-ll-stack", "");
    table.querySelectorAll("tbody tr").forEach(function (row) {
      Array.prototype.forEach.call(row.children, function (cell, i) {
        if (!cell.hasAttribute("data-label")) cell.setAttribute("data-label", heads[i] || "");
      });
    });
  });
}
if (typeof document$ !== "undefined") {
  document$.subscribe(labelTableCells);
} else {
  document.addEventListener("DOMContentLoaded", labelTableCells);
}
