// PerfLab report: draws every chart of the page. Each <div class="chart"> names, in data-option, the id of a
// <script type="application/json"> block holding its ECharts option; the block is data, parsed, never executed.
// The canvas renderer: the SVG one sets style attributes, which the pages' Content-Security-Policy refuses.
(function () {
  'use strict';
  function draw(el) {
    var source = document.getElementById(el.getAttribute('data-option'));
    if (!source) {
      return;
    }
    var option = JSON.parse(source.textContent);
    var chart = echarts.init(el, null, { renderer: 'canvas' });
    chart.setOption(option);
    window.addEventListener('resize', function () { chart.resize(); });
  }
  function drawAll() {
    var charts = document.querySelectorAll('div.chart');
    for (var i = 0; i < charts.length; i++) {
      draw(charts[i]);
    }
    document.body.setAttribute('data-charts-drawn', String(charts.length));
  }
  if (document.readyState === 'loading') {
    document.addEventListener('DOMContentLoaded', drawAll);
  } else {
    drawAll();
  }
})();
