
async function blob(){const el=document.getElementById('items-data');if(!el.dataset.gzip)return el.textContent;
 const bytes=Uint8Array.from(atob(el.textContent),c=>c.charCodeAt(0));
 return await new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'))).text();}
blob().then(t=>{const D=expand(JSON.parse(t));
const st={q:'',filters:{},sort:null,desc:false,group:false,page:0};const N=__PAGE_SIZE__;
const tb=document.querySelector('#items tbody'),info=document.getElementById('info');
function cell(i,c){const td=document.createElement('td');const v=D.rows[i][c];
 const t=cellText(v);if(typeof v==='number'){td.className='num';}else if(t.length>60){td.className='long';}
 const ms=(D.marks[i]||[]).filter(m=>m[0]===c).sort((a,b)=>a[1]-b[1]);let at=0;
 for(const m of ms){td.append(t.slice(at,m[1]));const k=document.createElement('mark');k.className=D.kinds[m[3]];
  k.textContent=t.slice(m[1],m[2]);td.append(k);at=m[2];}
 td.append(t.slice(at));return td;}
function draw(){const idx=view(D,st);const pages=Math.max(1,Math.ceil(idx.length/N));st.page=Math.min(st.page,pages-1);
 tb.replaceChildren();let last=null;
 for(const i of idx.slice(st.page*N,(st.page+1)*N)){
  if(st.group&&D.keys[i]!==last){last=D.keys[i];const g=document.createElement('tr');g.className='grp';
   const td=document.createElement('td');td.colSpan=D.shown.length;td.textContent='item '+last;
   g.append(td);tb.append(g);}
  const tr=document.createElement('tr');const s=D.status[i];if(s)tr.className=s>0?'good':'bad';
  for(const c of D.shown)tr.append(cell(i,c));tb.append(tr);}
 info.textContent=idx.length+' of '+D.rows.length+' items · page '+(st.page+1)+' of '+pages;}
document.getElementById('q').addEventListener('input',e=>{st.q=e.target.value;st.page=0;draw();});
for(const s of document.querySelectorAll('#controls select'))s.addEventListener('change',e=>{
 const o=e.target.selectedOptions[0],c=e.target.dataset.col;
 st.filters[c]=!o||o.value===''?null:D.filters[c][+o.dataset.i];st.page=0;draw();});
const g=document.getElementById('group');if(g)g.addEventListener('change',e=>{st.group=e.target.checked;draw();});
document.getElementById('prev').addEventListener('click',()=>{st.page=Math.max(0,st.page-1);draw();});
document.getElementById('next').addEventListener('click',()=>{st.page++;draw();});
document.querySelectorAll('#items th').forEach((th,k)=>th.addEventListener('click',()=>{const c=D.shown[k];
 st.desc=st.sort===c?!st.desc:false;st.sort=c;draw();}));
draw();});
