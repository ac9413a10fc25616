// Renders the page that /js-shell leaves empty, so a browser sees an article that the light engine cannot.
const root = document.getElementById('root');
const article = document.createElement('article');
article.innerHTML = `
  <h1>Harbour Dashboard</h1>
  <p>Today's tide tables, berth bookings and crane schedule for the inner harbour, rendered in the browser.
  High water is at 06:42 and 19:05; low water at 00:31 and 12:54. The fuel quay is open from seven until six.</p>
  <ul>
    <li>Berth 3: research vessel Aurora, departs Thursday.</li>
    <li>Berth 5: ferry maintenance, crane booked 09:00-13:00.</li>
    <li>Slipway: closed for resurfacing until the end of the month.</li>
  </ul>
  <p>Skippers should check the notices to mariners before leaving; the west channel buoy was moved last week.</p>`;
root.appendChild(article);
document.title = 'Harbour Dashboard';
