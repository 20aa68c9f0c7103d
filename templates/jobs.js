/* jobs.js - a report of several jobs: the navigation lists the jobs, so
   the job whose sections are on screen is the one highlighted. */
(function () {
  "use strict";
  var heads = document.querySelectorAll("main > section#jobs, main > section.job-head");
  var links = document.querySelectorAll("nav.toc a");
  var ticking = false;
  function update() {
    ticking = false;
    var current = heads.length ? heads[0].id : "";
    Array.prototype.forEach.call(heads, function (s) {
      if (s.getBoundingClientRect().top <= 120) current = s.id;
    });
    Array.prototype.forEach.call(links, function (a) {
      a.classList.toggle("active", a.getAttribute("href") === "#" + current);
    });
  }
  window.addEventListener("scroll", function () {
    if (!ticking) { ticking = true; window.requestAnimationFrame(update); }
  }, { passive: true });
  update();
})();
