
for(const t of document.querySelectorAll('table.sortable')){t.querySelectorAll('th').forEach((th,c)=>{
 th.addEventListener('click',()=>{const b=t.tBodies[0];const rows=[...b.rows];const d=th.dataset.d==='1'?-1:1;
 th.dataset.d=d===1?'1':'0';const val=r=>{const x=r.cells[c].dataset.v??r.cells[c].textContent;const f=parseFloat(x);
 return isNaN(f)?x:f;};rows.sort((p,q)=>{const a=val(p),z=val(q);return d*(a<z?-1:a>z?1:0);});b.append(...rows);});});}
