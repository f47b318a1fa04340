
function expand(d){for(const [c,vals] of Object.entries(d.dicts)){const k=+c;for(const r of d.rows)r[k]=vals[r[k]];}
 d.dicts={};return d;}
function cellText(v){return v===null||v===undefined?'':String(v);}
function view(d,st){
 const idx=[];const q=(st.q||'').toLowerCase();const f=Object.entries(st.filters||{}).filter(e=>e[1]!==null);
 for(let i=0;i<d.rows.length;i++){const r=d.rows[i];let ok=true;
  for(const [c,v] of f){if(cellText(r[+c])!==v){ok=false;break;}}
  if(ok&&q){ok=r.some(x=>cellText(x).toLowerCase().includes(q));}
  if(ok)idx.push(i);}
 const cmp=(a,b)=>{if(a===b)return 0;if(a===null)return 1;if(b===null)return -1;
  if(typeof a==='number'&&typeof b==='number')return a-b;return String(a)<String(b)?-1:1;};
 if(st.sort!==null&&st.sort!==undefined){const c=st.sort,s=st.desc?-1:1;
  idx.sort((a,b)=>s*cmp(d.rows[a][c],d.rows[b][c])||a-b);}
 if(st.group){const first=new Map();idx.forEach((i,k)=>{const key=d.keys[i];if(!first.has(key))first.set(key,k);});
  const at=new Map(idx.map((i,k)=>[i,k]));
  idx.sort((a,b)=>first.get(d.keys[a])-first.get(d.keys[b])||at.get(a)-at.get(b));}
 return idx;}
