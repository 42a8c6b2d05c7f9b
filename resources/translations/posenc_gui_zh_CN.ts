<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
  <context>
    <name />
    <message>
      <source>Principle</source>
      <translation>原理</translation>
    </message>
    <message>
      <source>Length generalisation</source>
      <translation>长度外推</translation>
    </message>
    <message>
      <source>Compute cost</source>
      <translation>计算开销</translation>
    </message>
    <message>
      <source>Typical use</source>
      <translation>典型应用</translation>
    </message>
    <message>
      <source>Implementation difficulty</source>
      <translation>实现难度</translation>
    </message>
    <message>
      <source>Export or copy a view</source>
      <translation>导出或复制视图</translation>
    </message>
    <message>
      <source>as on screen</source>
      <translation>与屏幕上相同</translation>
    </message>
    <message>
      <source>Pick a size or type one as width×height, e.g. 1000×800</source>
      <translation>选择一个尺寸，或按 宽×高 输入，例如 1000×800</translation>
    </message>
    <message>
      <source>caption with the parameters</source>
      <translation>附带参数说明</translation>
    </message>
    <message>
      <source>view</source>
      <translation>视图</translation>
    </message>
    <message>
      <source>size (PNG, SVG)</source>
      <translation>尺寸（PNG、SVG）</translation>
    </message>
    <message>
      <source>PNG resolution</source>
      <translation>PNG 分辨率</translation>
    </message>
    <message>
      <source>Save…</source>
      <translation>保存…</translation>
    </message>
    <message>
      <source>Copy image</source>
      <translation>复制图像</translation>
    </message>
    <message>
      <source>Export the view</source>
      <translation>导出视图</translation>
    </message>
    <message>
      <source>The size must be width×height in pixels, each from {0} to {1}; got {2}</source>
      <translation>尺寸须为 宽×高（像素），宽和高各在 {0} 到 {1} 之间；输入的是 {2}</translation>
    </message>
    <message>
      <source>Not copied</source>
      <translation>未复制</translation>
    </message>
    <message>
      <source>Copied {0} to the clipboard</source>
      <translation>已将 {0} 复制到剪贴板</translation>
    </message>
    <message>
      <source>Not exported</source>
      <translation>未导出</translation>
    </message>
    <message>
      <source>computing… the views show the previous settings</source>
      <translation>计算中……视图显示的是之前的设置</translation>
    </message>
    <message>
      <source>computing… {0} % — the views show the previous settings</source>
      <translation>计算中…… {0} %，视图显示的是之前的设置</translation>
    </message>
    <message>
      <source>coarse: fewer pixels until the exact frame is computed</source>
      <translation>粗略预览：像素较少，精确帧计算完成后替换</translation>
    </message>
    <message>
      <source>View All</source>
      <translation>显示全部</translation>
    </message>
    <message>
      <source>axis</source>
      <translation>轴</translation>
    </message>
    <message>
      <source>Mouse Mode</source>
      <translation>鼠标模式</translation>
    </message>
    <message>
      <source>3 button</source>
      <translation>三键（拖动平移）</translation>
    </message>
    <message>
      <source>1 button</source>
      <translation>单键（框选缩放）</translation>
    </message>
    <message>
      <source>Link Axis:</source>
      <translation>关联坐标轴：</translation>
    </message>
    <message>
      <source>Auto</source>
      <translation>自动</translation>
    </message>
    <message>
      <source>Manual</source>
      <translation>手动</translation>
    </message>
    <message>
      <source>Invert Axis</source>
      <translation>反转坐标轴</translation>
    </message>
    <message>
      <source>Mouse Enabled</source>
      <translation>启用鼠标</translation>
    </message>
    <message>
      <source>Visible Data Only</source>
      <translation>仅按可见数据</translation>
    </message>
    <message>
      <source>Auto Pan Only</source>
      <translation>仅自动平移</translation>
    </message>
    <message>
      <source>Links this axis with another view. When linked, both views will display the same data range.</source>
      <translation>把这条轴与另一个视图关联。关联后，两个视图显示相同的数据范围。</translation>
    </message>
    <message>
      <source>Percent of data to be visible when auto-scaling. It may be useful to decrease this value for data with spiky noise.</source>
      <translation>自动缩放时可见数据的百分比。数据有尖峰噪声时，减小此值可能有用。</translation>
    </message>
    <message>
      <source>Automatically resize this axis whenever the displayed data is changed.</source>
      <translation>显示的数据一变，就自动调整这条轴的范围。</translation>
    </message>
    <message>
      <source>Set the range for this axis manually. This disables automatic scaling.</source>
      <translation>手动设置这条轴的范围。这会关闭自动缩放。</translation>
    </message>
    <message>
      <source>Minimum value to display for this axis.</source>
      <translation>这条轴显示的最小值。</translation>
    </message>
    <message>
      <source>Maximum value to display for this axis.</source>
      <translation>这条轴显示的最大值。</translation>
    </message>
    <message>
      <source>Inverts the display of this axis. (+y points downward instead of upward)</source>
      <translation>反转这条轴的显示方向（+y 朝下而不是朝上）。</translation>
    </message>
    <message>
      <source>Enables mouse interaction (panning, scaling) for this axis.</source>
      <translation>允许用鼠标操作这条轴（平移、缩放）。</translation>
    </message>
    <message>
      <source>When checked, the axis will only auto-scale to data that is visible along the orthogonal axis.</source>
      <translation>勾选后，这条轴只按另一条轴上可见的数据自动缩放。</translation>
    </message>
    <message>
      <source>When checked, the axis will automatically pan to center on the current data, but the scale along this axis will not change.</source>
      <translation>勾选后，这条轴会自动平移，让当前数据居中，但不改变这条轴的缩放。</translation>
    </message>
    <message>
      <source>Loaded {0}: {1} RoPE, head_dim {2}, θ {3}</source>
      <translation>已载入 {0}：{1} RoPE，head_dim {2}，θ {3}</translation>
    </message>
    <message>
      <source>[{0}, … ({1} items)]</source>
      <translation>[{0}, …（共 {1} 项）]</translation>
    </message>
    <message>
      <source>read</source>
      <translation>已读取</translation>
    </message>
    <message>
      <source>key</source>
      <translation>键</translation>
    </message>
    <message>
      <source>value used</source>
      <translation>采用的值</translation>
    </message>
    <message>
      <source>read or ignored</source>
      <translation>读取或忽略</translation>
    </message>
    <message>
      <source>; layer types: {0} — the tabs show the full-attention layers, the extension tab's Layer types page all of them</source>
      <translation>；层类型：{0} —— 各标签页显示全注意力层，上下文扩展标签页的“层类型”页显示全部</translation>
    </message>
    <message>
      <source>; ignored keys: {0} (why: File → Import report…)</source>
      <translation>；忽略的键：{0}（原因见 文件 → 导入报告…）</translation>
    </message>
    <message>
      <source>Import report: {0}</source>
      <translation>导入报告：{0}</translation>
    </message>
    <message>
      <source>ignored: {0}</source>
      <translation>已忽略：{0}</translation>
    </message>
    <message>
      <source>RoPE layers</source>
      <translation>RoPE 层</translation>
    </message>
    <message>
      <source>NoPE layers</source>
      <translation>NoPE 层</translation>
    </message>
    <message>
      <source>&amp;Light theme</source>
      <translation>浅色主题(&amp;L)</translation>
    </message>
    <message>
      <source>&amp;Dark theme</source>
      <translation>深色主题(&amp;D)</translation>
    </message>
    <message>
      <source>Sequential colormap</source>
      <translation>顺序色图</translation>
    </message>
    <message>
      <source>Diverging colormap</source>
      <translation>发散色图</translation>
    </message>
    <message>
      <source>Cyclic colormap</source>
      <translation>循环色图</translation>
    </message>
    <message>
      <source>&amp;File</source>
      <translation>文件(&amp;F)</translation>
    </message>
    <message>
      <source>&amp;Open config.json…</source>
      <translation>打开 config.json(&amp;O)…</translation>
    </message>
    <message>
      <source>&amp;Paste config.json…</source>
      <translation>粘贴 config.json(&amp;P)…</translation>
    </message>
    <message>
      <source>&amp;Import report…</source>
      <translation>导入报告(&amp;I)…</translation>
    </message>
    <message>
      <source>Open &amp;session…</source>
      <translation>打开会话(&amp;S)…</translation>
    </message>
    <message>
      <source>&amp;Save session as…</source>
      <translation>会话另存为(&amp;A)…</translation>
    </message>
    <message>
      <source>&amp;Export or copy a view…</source>
      <translation>导出或复制视图(&amp;E)…</translation>
    </message>
    <message>
      <source>&amp;Quit</source>
      <translation>退出(&amp;Q)</translation>
    </message>
    <message>
      <source>&amp;Presets</source>
      <translation>预设(&amp;P)</translation>
    </message>
    <message>
      <source>&amp;View</source>
      <translation>视图(&amp;V)</translation>
    </message>
    <message>
      <source>&amp;Presentation mode (larger fonts, thicker lines)</source>
      <translation>演示模式（更大字体、更粗线条）(&amp;P)</translation>
    </message>
    <message>
      <source>&amp;Language</source>
      <translation>语言(&amp;L)</translation>
    </message>
    <message>
      <source>&amp;Device</source>
      <translation>设备(&amp;D)</translation>
    </message>
    <message>
      <source>&amp;Help</source>
      <translation>帮助(&amp;H)</translation>
    </message>
    <message>
      <source>&amp;About posenc-gui</source>
      <translation>关于 posenc-gui(&amp;A)</translation>
    </message>
    <message>
      <source>About posenc-gui</source>
      <translation>关于 posenc-gui</translation>
    </message>
    <message>
      <source>Open a session</source>
      <translation>打开会话</translation>
    </message>
    <message>
      <source>posenc-gui session (*.json);;All files (*)</source>
      <translation>posenc-gui 会话 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
      <source>Save the session</source>
      <translation>保存会话</translation>
    </message>
    <message>
      <source>posenc-gui session (*.json)</source>
      <translation>posenc-gui 会话 (*.json)</translation>
    </message>
    <message>
      <source>Open a model's config.json</source>
      <translation>打开模型的 config.json</translation>
    </message>
    <message>
      <source>JSON (*.json);;All files (*)</source>
      <translation>JSON (*.json);;所有文件 (*)</translation>
    </message>
    <message>
      <source>Paste config.json</source>
      <translation>粘贴 config.json</translation>
    </message>
    <message>
      <source>A model's config.json (JSON):</source>
      <translation>模型的 config.json（JSON）：</translation>
    </message>
    <message>
      <source>pasted config.json</source>
      <translation>粘贴的 config.json</translation>
    </message>
    <message>
      <source>Not done</source>
      <translation>未完成</translation>
    </message>
    <message>
      <source>Transformer positional encodings made visible: absolute sinusoidal, relative and rotary.</source>
      <translation>让 Transformer 位置编码看得见：绝对正弦、相对与旋转位置编码。</translation>
    </message>
    <message>
      <source>Export or copy this view…</source>
      <translation>导出或复制此视图…</translation>
    </message>
    <message>
      <source>seq_len (positions)</source>
      <translation>seq_len（位置数）</translation>
    </message>
    <message>
      <source>d_model (even)</source>
      <translation>d_model（偶数）</translation>
    </message>
    <message>
      <source>head_dim (RoPE, even)</source>
      <translation>head_dim（RoPE，偶数）</translation>
    </message>
    <message>
      <source>base θ (log scale)</source>
      <translation>底数 θ（对数刻度）</translation>
    </message>
    <message>
      <source> · {0} positions a pixel: mean, and min–max band</source>
      <translation> · 每像素 {0} 个位置：均值及最小–最大带</translation>
    </message>
    <message>
      <source> · {0} tokens a pixel: mean, and min–max band</source>
      <translation> · 每像素 {0} 个词元：均值及最小–最大带</translation>
    </message>
    <message>
      <source> · a cell: the mean of {0} positions × {1} {2}</source>
      <translation> · 每格：{0} 个位置 × {1} 个{2}的均值</translation>
    </message>
    <message>
      <source> · a cell: the mean of {0} {1}</source>
      <translation> · 每格：{0} 个{1}的均值</translation>
    </message>
    <message>
      <source> · a pixel: the mean of {0} distances</source>
      <translation> · 每像素：{0} 个距离的均值</translation>
    </message>
    <message>
      <source> · a cell: the mean of {0} positions</source>
      <translation> · 每格：{0} 个位置的均值</translation>
    </message>
    <message>
      <source>Last session not restored: {reason}</source>
      <translation>未恢复上次会话：{reason}</translation>
    </message>
    <message>
      <source>not current: {reason}</source>
      <translation>非当前结果：{reason}</translation>
    </message>
    <message>
      <source>Absolute</source>
      <translation>绝对</translation>
    </message>
    <message>
      <source>sinusoidal, d_model {d}</source>
      <translation>正弦，d_model {d}</translation>
    </message>
    <message>
      <source>Sinusoidal</source>
      <translation>正弦</translation>
    </message>
    <message>
      <source>Fixed sin/cos waves of the position added to the token embedding</source>
      <translation>把位置的固定 sin/cos 波加到词嵌入上</translation>
    </message>
    <message>
      <source>Poor: defined at every position, but unseen positions degrade quality</source>
      <translation>差：任何位置都有定义，但未见过的位置会降低效果</translation>
    </message>
    <message>
      <source>Lowest: one table added once, at the input</source>
      <translation>最低：只在输入处加一次编码表</translation>
    </message>
    <message>
      <source>Original Transformer, encoder models</source>
      <translation>原始 Transformer、编码器模型</translation>
    </message>
    <message>
      <source>Easy</source>
      <translation>简单</translation>
    </message>
    <message>
      <source>(d) PE(p)·PE(p+k) against distance k</source>
      <translation>(d) PE(p)·PE(p+k) 随距离 k 变化</translation>
    </message>
    <message>
      <source>PE[p, 2i] = sin(p·ω&lt;sub&gt;i&lt;/sub&gt;), PE[p, 2i+1] = cos(p·ω&lt;sub&gt;i&lt;/sub&gt;), ω&lt;sub&gt;i&lt;/sub&gt; = θ&lt;sup&gt;−2i/d&lt;/sup&gt;. PE(p)·PE(p+k) = Σ&lt;sub&gt;i&lt;/sub&gt; cos(k·ω&lt;sub&gt;i&lt;/sub&gt;) depends on k only.</source>
      <translation>PE[p, 2i] = sin(p·ω&lt;sub&gt;i&lt;/sub&gt;)，PE[p, 2i+1] = cos(p·ω&lt;sub&gt;i&lt;/sub&gt;)，ω&lt;sub&gt;i&lt;/sub&gt; = θ&lt;sup&gt;−2i/d&lt;/sup&gt;。PE(p)·PE(p+k) = Σ&lt;sub&gt;i&lt;/sub&gt; cos(k·ω&lt;sub&gt;i&lt;/sub&gt;) 只取决于 k。</translation>
    </message>
    <message>
      <source>held at the sentence's length while the Absolute tab labels positions with tokens</source>
      <translation>绝对编码标签页用词元标注位置时，固定为句子长度</translation>
    </message>
    <message>
      <source>interleaved (paper)</source>
      <translation>交错（论文）</translation>
    </message>
    <message>
      <source>concatenated [sin | cos]</source>
      <translation>拼接 [sin | cos]</translation>
    </message>
    <message>
      <source>dot product PE·PE</source>
      <translation>点积 PE·PE</translation>
    </message>
    <message>
      <source>cosine</source>
      <translation>余弦</translation>
    </message>
    <message>
      <source>label positions with tokens</source>
      <translation>用词元标注位置</translation>
    </message>
    <message>
      <source>(a) PE[position, dimension]</source>
      <translation>(a) PE[位置, 维度]</translation>
    </message>
    <message>
      <source>dimension</source>
      <translation>维度</translation>
    </message>
    <message>
      <source>position</source>
      <translation>位置</translation>
    </message>
    <message>
      <source>PE</source>
      <translation>PE</translation>
    </message>
    <message>
      <source>(b) Waveforms PE[:, i]</source>
      <translation>(b) 波形 PE[:, i]</translation>
    </message>
    <message>
      <source>(c) Similarity PE·PEᵀ</source>
      <translation>(c) 相似度 PE·PEᵀ</translation>
    </message>
    <message>
      <source>similarity</source>
      <translation>相似度</translation>
    </message>
    <message>
      <source>distance k</source>
      <translation>距离 k</translation>
    </message>
    <message>
      <source>layout</source>
      <translation>布局</translation>
    </message>
    <message>
      <source>reference position p</source>
      <translation>参考位置 p</translation>
    </message>
    <message>
      <source>waveform dimensions</source>
      <translation>波形维度</translation>
    </message>
    <message>
      <source>sentence</source>
      <translation>句子</translation>
    </message>
    <message>
      <source>sentence must not be empty to label positions with tokens</source>
      <translation>用词元标注位置时句子不能为空</translation>
    </message>
    <message>
      <source>dimensions</source>
      <translation>维度</translation>
    </message>
    <message>
      <source>positions</source>
      <translation>位置</translation>
    </message>
    <message>
      <source>Σᵢ cos(k·ωᵢ) (closed form)</source>
      <translation>Σᵢ cos(k·ωᵢ)（闭式解）</translation>
    </message>
    <message>
      <source>dimensions must be in [0, {0}]; others are skipped</source>
      <translation>维度须在 [0, {0}] 内；其余已跳过</translation>
    </message>
    <message>
      <source>(c) Similarity {0}</source>
      <translation>(c) 相似度 {0}</translation>
    </message>
    <message>
      <source>PE(p)·PE(p+k), p = {0}</source>
      <translation>PE(p)·PE(p+k)，p = {0}</translation>
    </message>
    <message>
      <source>dim {0}</source>
      <translation>维度 {0}</translation>
    </message>
    <message>
      <source>Compare</source>
      <translation>对比</translation>
    </message>
    <message>
      <source>Every curve is 1 at distance 0. Sinusoidal and RoPE: cosine similarity of one vector at positions p and p + k. ALiBi: e&lt;sup&gt;−m&lt;sub&gt;h&lt;/sub&gt;k&lt;/sup&gt;, the factor its bias multiplies attention by. T5 and Shaw: 1 − bucket (or clipped index) / the last one; flat where distances share a bucket or a vector and cannot be told apart.</source>
      <translation>每条曲线在距离 0 处为 1。正弦与 RoPE：同一向量在位置 p 与 p + k 处的余弦相似度。ALiBi：e&lt;sup&gt;−m&lt;sub&gt;h&lt;/sub&gt;k&lt;/sup&gt;，即其偏置使注意力权重乘上的因子。T5 与 Shaw：1 − 桶号（或截断后的索引）/ 最大值；曲线平坦处的距离共用同一个桶或向量，模型无法区分。</translation>
    </message>
    <message>
      <source>Similarity against distance, normalised</source>
      <translation>相似度随距离变化（归一化）</translation>
    </message>
    <message>
      <source>logarithmic distance axis</source>
      <translation>距离轴用对数刻度</translation>
    </message>
    <message>
      <source>relative distance k</source>
      <translation>相对距离 k</translation>
    </message>
    <message>
      <source>similarity (1 at k = 0)</source>
      <translation>相似度（k = 0 时为 1）</translation>
    </message>
    <message>
      <source>Context extension</source>
      <translation>上下文扩展</translation>
    </message>
    <message>
      <source>(c) Decay of q·k (q = k = 1)</source>
      <translation>(c) q·k 的衰减（q = k = 1）</translation>
    </message>
    <message>
      <source>none (plain RoPE)</source>
      <translation>无（原始 RoPE）</translation>
    </message>
    <message>
      <source>linear / position interpolation</source>
      <translation>线性 / 位置插值</translation>
    </message>
    <message>
      <source>NTK-aware (static)</source>
      <translation>NTK-aware（静态）</translation>
    </message>
    <message>
      <source>dynamic NTK</source>
      <translation>动态 NTK</translation>
    </message>
    <message>
      <source>proportional (Gemma 4)</source>
      <translation>比例式（Gemma 4）</translation>
    </message>
    <message>
      <source>kept</source>
      <translation>保持</translation>
    </message>
    <message>
      <source>blended</source>
      <translation>混合</translation>
    </message>
    <message>
      <source>interpolated</source>
      <translation>插值</translation>
    </message>
    <message>
      <source>not rotated</source>
      <translation>不旋转</translation>
    </message>
    <message>
      <source>(f) Dynamic NTK: base against sequence length</source>
      <translation>(f) 动态 NTK：底数随序列长度变化</translation>
    </message>
    <message>
      <source>(a) Wavelength per pair</source>
      <translation>(a) 每对通道的波长</translation>
    </message>
    <message>
      <source>pair i</source>
      <translation>通道对 i</translation>
    </message>
    <message>
      <source>wavelength (positions)</source>
      <translation>波长（位置数）</translation>
    </message>
    <message>
      <source>(b) θ′ᵢ / θᵢ per pair</source>
      <translation>(b) 每对通道的 θ′ᵢ / θᵢ</translation>
    </message>
    <message>
      <source>ratio</source>
      <translation>比值</translation>
    </message>
    <message>
      <source>distance</source>
      <translation>距离</translation>
    </message>
    <message>
      <source>score</source>
      <translation>得分</translation>
    </message>
    <message>
      <source>(d) Angle budget per pair</source>
      <translation>(d) 每对通道的角度范围</translation>
    </message>
    <message>
      <source>largest angle (rad)</source>
      <translation>最大角度（弧度）</translation>
    </message>
    <message>
      <source>sequence length</source>
      <translation>序列长度</translation>
    </message>
    <message>
      <source>effective base</source>
      <translation>等效底数</translation>
    </message>
    <message>
      <source> · none: it needs a rotary dim of at least 4</source>
      <translation> · 无：旋转维度至少需要 4</translation>
    </message>
    <message>
      <source>attention factor (mscale) {0:.4f} · effective base {1} · pairs kept {2}, blended {3}, interpolated {4}{6} · {5} pairs see angles never seen in training</source>
      <translation>注意力因子（mscale）{0:.4f} · 等效底数 {1} · 保持 {2} 对，混合 {3} 对，插值 {4} 对{6} · {5} 对通道出现训练中未见过的角度</translation>
    </message>
    <message>
      <source>target</source>
      <translation>目标</translation>
    </message>
    <message>
      <source>L0 = target</source>
      <translation>L0 = 目标</translation>
    </message>
    <message>
      <source>angles never seen in training</source>
      <translation>训练中从未见过的角度</translation>
    </message>
    <message>
      <source>, not rotated {0}</source>
      <translation>，不旋转 {0} 对</translation>
    </message>
    <message>
      <source>original 2π/θᵢ</source>
      <translation>原始 2π/θᵢ</translation>
    </message>
    <message>
      <source>original</source>
      <translation>原始</translation>
    </message>
    <message>
      <source>within L0, original</source>
      <translation>L0 内，原始</translation>
    </message>
    <message>
      <source>within target, scaled</source>
      <translation>目标长度内，缩放后</translation>
    </message>
    <message>
      <source>target = {0:,}</source>
      <translation>目标 = {0:,}</translation>
    </message>
    <message>
      <source>L0 = target = {0:,}</source>
      <translation>L0 = 目标 = {0:,}</translation>
    </message>
    <message>
      <source>2π: a full turn</source>
      <translation>2π：整一圈</translation>
    </message>
    <message>
      <source>{0} (× attention factor²)</source>
      <translation>{0}（× 注意力因子²）</translation>
    </message>
    <message>
      <source>dynamic NTK, s = {0:g}</source>
      <translation>动态 NTK，s = {0:g}</translation>
    </message>
    <message>
      <source>length {0:,}</source>
      <translation>长度 {0:,}</translation>
    </message>
    <message>
      <source>layers not listed</source>
      <translation>未列出层</translation>
    </message>
    <message>
      <source> (the controls)</source>
      <translation>（由控件设定）</translation>
    </message>
    <message>
      <source>(g) Wavelength per pair, each layer type</source>
      <translation>(g) 各层类型每对维度的波长</translation>
    </message>
    <message>
      <source>(h) Layer pattern</source>
      <translation>(h) 层排布</translation>
    </message>
    <message>
      <source>layer</source>
      <translation>层</translation>
    </message>
    <message>
      <source>{0} layers</source>
      <translation>{0} 层</translation>
    </message>
    <message>
      <source>no RoPE</source>
      <translation>无 RoPE</translation>
    </message>
    <message>
      <source>(h) Layer pattern: import a config.json that lists its layers</source>
      <translation>(h) 层排布：请导入列出各层的 config.json</translation>
    </message>
    <message>
      <source>every layer</source>
      <translation>所有层</translation>
    </message>
    <message>
      <source>YaRN: truncate the ramp</source>
      <translation>YaRN：截断斜坡</translation>
    </message>
    <message>
      <source>Play dynamic-NTK sweep</source>
      <translation>播放动态 NTK 扫描</translation>
    </message>
    <message>
      <source>Frequencies</source>
      <translation>频率</translation>
    </message>
    <message>
      <source>Decay &amp;&amp; angles</source>
      <translation>衰减与角度</translation>
    </message>
    <message>
      <source>Dynamic NTK</source>
      <translation>动态 NTK</translation>
    </message>
    <message>
      <source>Layer types</source>
      <translation>层类型</translation>
    </message>
    <message>
      <source>dynamic NTK needs a rotary dim of at least 4 (its exponent is d/(d−2))</source>
      <translation>动态 NTK 需要至少 4 维的旋转维度（其指数为 d/(d−2)）</translation>
    </message>
    <message>
      <source>Pause sweep</source>
      <translation>暂停扫描</translation>
    </message>
    <message>
      <source>longrope needs short_factor and long_factor lists: load a LongRoPE preset or a config.json that has them</source>
      <translation>longrope 需要 short_factor 与 long_factor 列表：请载入 LongRoPE 预设或含有它们的 config.json</translation>
    </message>
    <message>
      <source>LongRoPE factor lists: none (load a LongRoPE preset or config.json)</source>
      <translation>LongRoPE 因子列表：无（请载入 LongRoPE 预设或 config.json）</translation>
    </message>
    <message>
      <source>method</source>
      <translation>方法</translation>
    </message>
    <message>
      <source>factor s</source>
      <translation>缩放因子 s</translation>
    </message>
    <message>
      <source>original L0</source>
      <translation>原始长度 L0</translation>
    </message>
    <message>
      <source>target context</source>
      <translation>目标上下文长度</translation>
    </message>
    <message>
      <source>partial rotary</source>
      <translation>部分旋转比例</translation>
    </message>
    <message>
      <source>YaRN beta_fast</source>
      <translation>YaRN beta_fast</translation>
    </message>
    <message>
      <source>YaRN beta_slow</source>
      <translation>YaRN beta_slow</translation>
    </message>
    <message>
      <source>YaRN mscale (0: unset)</source>
      <translation>YaRN mscale（0：未设置）</translation>
    </message>
    <message>
      <source>YaRN mscale_all_dim</source>
      <translation>YaRN mscale_all_dim</translation>
    </message>
    <message>
      <source>Llama 3 low_freq</source>
      <translation>Llama 3 low_freq（低频因子）</translation>
    </message>
    <message>
      <source>Llama 3 high_freq</source>
      <translation>Llama 3 high_freq（高频因子）</translation>
    </message>
    <message>
      <source>attention factor (0: the method's)</source>
      <translation>注意力因子（0：按方法计算）</translation>
    </message>
    <message>
      <source>LongRoPE short_mscale (0: unset)</source>
      <translation>LongRoPE short_mscale（0：未设）</translation>
    </message>
    <message>
      <source>LongRoPE long_mscale (0: unset)</source>
      <translation>LongRoPE long_mscale（0：未设）</translation>
    </message>
    <message>
      <source>sweep length</source>
      <translation>扫描长度</translation>
    </message>
    <message>
      <source>session</source>
      <translation>会话</translation>
    </message>
    <message>
      <source>LongRoPE factor lists: from {0} ({1} short + {2} long)</source>
      <translation>LongRoPE 因子列表：来自 {0}（{1} 个短 + {2} 个长）</translation>
    </message>
    <message>
      <source>Multimodal RoPE</source>
      <translation>多模态 RoPE</translation>
    </message>
    <message>
      <source>2-D axial RoPE</source>
      <translation>二维轴向 RoPE</translation>
    </message>
    <message>
      <source>2-D axial RoPE along a row, q = 1, head_dim {d}</source>
      <translation>二维轴向 RoPE 沿一行，q = 1，head_dim {d}</translation>
    </message>
    <message>
      <source>Half the pairs turn by a patch's row, half by its column: scores depend on offsets</source>
      <translation>一半通道对按图块的行旋转，一半按列旋转：得分只取决于偏移</translation>
    </message>
    <message>
      <source>Images of other sizes: the ids are patch counts, not fractions of the image</source>
      <translation>其他尺寸的图像：编号是图块数，而不是图像的比例</translation>
    </message>
    <message>
      <source>Low: RoPE's rotation with two position ids</source>
      <translation>低：带两个位置编号的 RoPE 旋转</translation>
    </message>
    <message>
      <source>Pixtral's vision encoder, EVA-02, RoPE-ViT; M-RoPE (t, h, w) in Qwen2-VL, Qwen3-VL</source>
      <translation>Pixtral 的视觉编码器、EVA-02、RoPE-ViT；Qwen2-VL、Qwen3-VL 中的 M-RoPE (t, h, w)</translation>
    </message>
    <message>
      <source>Medium</source>
      <translation>中等</translation>
    </message>
    <message>
      <source>t (time)</source>
      <translation>t（时间）</translation>
    </message>
    <message>
      <source>h (height)</source>
      <translation>h（高）</translation>
    </message>
    <message>
      <source>w (width)</source>
      <translation>w（宽）</translation>
    </message>
    <message>
      <source>row</source>
      <translation>行</translation>
    </message>
    <message>
      <source>column</source>
      <translation>列</translation>
    </message>
    <message>
      <source>(a) The axis each pair turns by</source>
      <translation>(a) 每对通道所按的位置轴</translation>
    </message>
    <message>
      <source>(b) Frequency θᵢ of each pair</source>
      <translation>(b) 每对通道的频率 θᵢ</translation>
    </message>
    <message>
      <source>θᵢ (rad per position)</source>
      <translation>θᵢ（弧度 / 位置）</translation>
    </message>
    <message>
      <source>(c) Layers</source>
      <translation>(c) 各层</translation>
    </message>
    <message>
      <source>(d) Position ids per token</source>
      <translation>(d) 每个词元的位置编号</translation>
    </message>
    <message>
      <source>token</source>
      <translation>词元</translation>
    </message>
    <message>
      <source>position id</source>
      <translation>位置编号</translation>
    </message>
    <message>
      <source>(e) Position id of each token, per axis</source>
      <translation>(e) 每个词元在各轴上的位置编号</translation>
    </message>
    <message>
      <source>(f) Score of the query patch against every patch</source>
      <translation>(f) 查询图块与每个图块的得分</translation>
    </message>
    <message>
      <source>patch column</source>
      <translation>图块列</translation>
    </message>
    <message>
      <source>patch row</source>
      <translation>图块行</translation>
    </message>
    <message>
      <source>(g) Along the query's row</source>
      <translation>(g) 沿查询图块所在行</translation>
    </message>
    <message>
      <source>Δ column</source>
      <translation>Δ 列</translation>
    </message>
    <message>
      <source>video tokens</source>
      <translation>视频词元</translation>
    </message>
    <message>
      <source>image tokens</source>
      <translation>图像词元</translation>
    </message>
    <message>
      <source>random q = k, mean</source>
      <translation>随机 q = k，均值</translation>
    </message>
    <message>
      <source>window</source>
      <translation>窗口</translation>
    </message>
    <message>
      <source>(c) Layers: choose a preset or import a config.json</source>
      <translation>(c) 各层：请选择预设或导入 config.json</translation>
    </message>
    <message>
      <source>(f) Patch ({0}, {1}) · {2}</source>
      <translation>(f) 图块 ({0}, {1}) · {2}</translation>
    </message>
    <message>
      <source>random q = k: mean</source>
      <translation>随机 q = k：均值</translation>
    </message>
    <message>
      <source>(g) Row {0}: {1}, {2}</source>
      <translation>(g) 第 {0} 行：{1}，{2}</translation>
    </message>
    <message>
      <source>random: mean ± std</source>
      <translation>随机：均值 ± 标准差</translation>
    </message>
    <message>
      <source>(c) {0} layers · {1}</source>
      <translation>(c) {0} 层 · {1}</translation>
    </message>
    <message>
      <source>(c) Every layer alike · {0}</source>
      <translation>(c) 各层相同 · {0}</translation>
    </message>
    <message>
      <source>(e) Ids: {0}</source>
      <translation>(e) 编号：{0}</translation>
    </message>
    <message>
      <source>random q = k: mean ± std</source>
      <translation>随机 q = k：均值 ± 标准差</translation>
    </message>
    <message>
      <source>Pair i turns by the position on its own axis aᵢ: angle = p[aᵢ]·θᵢ. A text token has one id on every axis (plain RoPE); an image's patches carry their (t, h, w) place in the grid from the id after the text before them, and the text after it resumes at that id + max(height, width), as transformers' get_rope_index numbers them.</source>
      <translation>通道对 i 按它自己的轴 aᵢ 上的位置旋转：角度 = p[aᵢ]·θᵢ。文本词元在每个轴上编号相同（即原始 RoPE）；图像的图块从前面文本之后的编号起，带着它在网格中的 (t, h, w) 位置；其后的文本从该编号 + max(高, 宽) 继续，与 transformers 的 get_rope_index 一致。</translation>
    </message>
    <message>
      <source>Pair i turns by the patch's row or its column: angle = p[aᵢ]·θᵢ, the even-indexed frequencies on rows, the odd-indexed on columns (Pixtral). The score of two patches depends on their offset (Δrow, Δcolumn) only.</source>
      <translation>通道对 i 按图块的行或列旋转：角度 = p[aᵢ]·θᵢ，偶数序号的频率用于行，奇数序号的用于列（Pixtral）。两个图块的得分只取决于它们的偏移 (Δ行, Δ列)。</translation>
    </message>
    <message>
      <source>M-RoPE sections (Qwen2-VL, Qwen2.5-VL)</source>
      <translation>M-RoPE 分段（Qwen2-VL、Qwen2.5-VL）</translation>
    </message>
    <message>
      <source>M-RoPE interleaved (Qwen3-VL)</source>
      <translation>M-RoPE 交错（Qwen3-VL）</translation>
    </message>
    <message>
      <source>2-D axial (Pixtral's vision encoder)</source>
      <translation>二维轴向（Pixtral 的视觉编码器）</translation>
    </message>
    <message>
      <source>q = k = all ones</source>
      <translation>q = k = 全 1</translation>
    </message>
    <message>
      <source>random q = k (seeded): mean</source>
      <translation>随机 q = k（固定种子）：均值</translation>
    </message>
    <message>
      <source>pairs per axis: t, h, w</source>
      <translation>各轴的通道对数：t、h、w</translation>
    </message>
    <message>
      <source>Pairs &amp;&amp; layers</source>
      <translation>通道对与层</translation>
    </message>
    <message>
      <source>Sequence ids</source>
      <translation>序列编号</translation>
    </message>
    <message>
      <source>Patch scores</source>
      <translation>图块得分</translation>
    </message>
    <message>
      <source>mrope_section {0} adds up to {1} pairs, head_dim {2} has {3}: drawn with {4}</source>
      <translation>mrope_section {0} 共 {1} 对，head_dim {2} 有 {3} 对：按 {4} 绘制</translation>
    </message>
    <message>
      <source>scheme</source>
      <translation>方案</translation>
    </message>
    <message>
      <source>mrope_section</source>
      <translation>mrope 分段</translation>
    </message>
    <message>
      <source>text before</source>
      <translation>前置文本</translation>
    </message>
    <message>
      <source>video frames</source>
      <translation>视频帧数</translation>
    </message>
    <message>
      <source>image height (patches)</source>
      <translation>图像高度（图块）</translation>
    </message>
    <message>
      <source>image width (patches)</source>
      <translation>图像宽度（图块）</translation>
    </message>
    <message>
      <source>temporal id step</source>
      <translation>时间编号步长</translation>
    </message>
    <message>
      <source>timestamp tokens per frame</source>
      <translation>每帧的时间戳词元数</translation>
    </message>
    <message>
      <source>text after</source>
      <translation>后置文本</translation>
    </message>
    <message>
      <source>query patch row</source>
      <translation>查询图块行</translation>
    </message>
    <message>
      <source>query patch column</source>
      <translation>查询图块列</translation>
    </message>
    <message>
      <source>q and k</source>
      <translation>q 与 k</translation>
    </message>
    <message>
      <source>seed (random q)</source>
      <translation>随机种子（随机 q）</translation>
    </message>
    <message>
      <source>Relative</source>
      <translation>相对</translation>
    </message>
    <message>
      <source>ALiBi, heads 1 … {n} (steepest first)</source>
      <translation>ALiBi，头 1 … {n}（最陡的在前）</translation>
    </message>
    <message>
      <source>Shaw</source>
      <translation>Shaw</translation>
    </message>
    <message>
      <source>T5 bias</source>
      <translation>T5 偏置</translation>
    </message>
    <message>
      <source>ALiBi</source>
      <translation>ALiBi</translation>
    </message>
    <message>
      <source>Shaw, K = {k}</source>
      <translation>Shaw，K = {k}</translation>
    </message>
    <message>
      <source>T5, {n} buckets</source>
      <translation>T5，{n} 个桶</translation>
    </message>
    <message>
      <source>A learned vector per clipped distance j − i, added to the keys inside attention</source>
      <translation>每个截断后的距离 j − i 对应一个可学习向量，在注意力内部加到键上</translation>
    </message>
    <message>
      <source>Good within the clip; farther distances share one vector</source>
      <translation>截断范围内较好；更远的距离共用一个向量</translation>
    </message>
    <message>
      <source>Higher: an extra q·a term for every (i, j) in every layer</source>
      <translation>较高：每层每个 (i, j) 多一项 q·a</translation>
    </message>
    <message>
      <source>Music Transformer, early relative-attention models</source>
      <translation>Music Transformer、早期相对注意力模型</translation>
    </message>
    <message>
      <source>A learned scalar per head and log-spaced distance bucket, added to the logits</source>
      <translation>每个头、每个对数间隔的距离桶对应一个可学习标量，加到注意力 logits 上</translation>
    </message>
    <message>
      <source>Fair: distances beyond max_distance share the last bucket</source>
      <translation>一般：超过 max_distance 的距离共用最后一个桶</translation>
    </message>
    <message>
      <source>Low: one L × L bias per head, shared by the layers</source>
      <translation>低：每个头一个 L × L 偏置，各层共享</translation>
    </message>
    <message>
      <source>T5, mT5, Flan-T5</source>
      <translation>T5、mT5、Flan-T5</translation>
    </message>
    <message>
      <source>A fixed linear penalty −mₕ·|⁠i − j| per head on the logits; no embedding</source>
      <translation>每个头在 logits 上施加固定线性惩罚 −mₕ·|⁠i − j|；无需嵌入</translation>
    </message>
    <message>
      <source>Strong: extrapolates beyond the training length</source>
      <translation>强：可外推到训练长度之外</translation>
    </message>
    <message>
      <source>Low: a fixed bias per head, no parameters</source>
      <translation>低：每个头一个固定偏置，无参数</translation>
    </message>
    <message>
      <source>BLOOM, MPT</source>
      <translation>BLOOM、MPT</translation>
    </message>
    <message>
      <source>Shaw clip K</source>
      <translation>Shaw 截断 K</translation>
    </message>
    <message>
      <source>T5 num_buckets</source>
      <translation>T5 num_buckets（桶数）</translation>
    </message>
    <message>
      <source>T5 max_distance</source>
      <translation>T5 max_distance（最大距离）</translation>
    </message>
    <message>
      <source>ALiBi n_heads</source>
      <translation>ALiBi n_heads（头数）</translation>
    </message>
    <message>
      <source>sinusoidal relative (source article)</source>
      <translation>正弦相对编码（原文）</translation>
    </message>
    <message>
      <source>Shaw et al. 2018 (clipped)</source>
      <translation>Shaw 等 2018（截断）</translation>
    </message>
    <message>
      <source>T5 buckets</source>
      <translation>T5 分桶</translation>
    </message>
    <message>
      <source>sinusoidal relative</source>
      <translation>正弦相对编码</translation>
    </message>
    <message>
      <source>Shaw, clipped</source>
      <translation>Shaw，截断</translation>
    </message>
    <message>
      <source>Score(q&lt;sub&gt;i&lt;/sub&gt;, k&lt;sub&gt;j&lt;/sub&gt;) = q&lt;sub&gt;i&lt;/sub&gt;ᵀk&lt;sub&gt;j&lt;/sub&gt; + b&lt;sub&gt;r(i,j)&lt;/sub&gt;, r(i, j) = j − i. Row i of the sinusoidal relative table is the absolute table shifted by −i: R[i, j] = PE(j − i); for i = 0 it is the absolute table.</source>
      <translation>Score(q&lt;sub&gt;i&lt;/sub&gt;, k&lt;sub&gt;j&lt;/sub&gt;) = q&lt;sub&gt;i&lt;/sub&gt;ᵀk&lt;sub&gt;j&lt;/sub&gt; + b&lt;sub&gt;r(i,j)&lt;/sub&gt;，r(i, j) = j − i。正弦相对编码表的第 i 行是把绝对编码表平移 −i：R[i, j] = PE(j − i)；i = 0 时就是绝对编码表。</translation>
    </message>
    <message>
      <source>bidirectional (else causal)</source>
      <translation>双向（否则为因果）</translation>
    </message>
    <message>
      <source>causal (else symmetric |⁠i − j|)</source>
      <translation>因果（否则为对称 |⁠i − j|）</translation>
    </message>
    <message>
      <source>(a) Relative distance j − i</source>
      <translation>(a) 相对距离 j − i</translation>
    </message>
    <message>
      <source>key j</source>
      <translation>键 j</translation>
    </message>
    <message>
      <source>query i</source>
      <translation>查询 i</translation>
    </message>
    <message>
      <source>(b) Sinusoidal relative table R[i, j, :]</source>
      <translation>(b) 正弦相对编码表 R[i, j, :]</translation>
    </message>
    <message>
      <source>PE(j − i)</source>
      <translation>PE(j − i)</translation>
    </message>
    <message>
      <source>(c) T5 bucket of j − i</source>
      <translation>(c) j − i 的 T5 桶</translation>
    </message>
    <message>
      <source>bucket</source>
      <translation>桶</translation>
    </message>
    <message>
      <source>(c) T5 bucket against distance</source>
      <translation>(c) T5 桶随距离变化</translation>
    </message>
    <message>
      <source>(d) ALiBi slope per head</source>
      <translation>(d) 每个头的 ALiBi 斜率</translation>
    </message>
    <message>
      <source>head h</source>
      <translation>头 h</translation>
    </message>
    <message>
      <source>slope mₕ</source>
      <translation>斜率 mₕ</translation>
    </message>
    <message>
      <source>(d) ALiBi bias, head 0</source>
      <translation>(d) ALiBi 偏置，头 0</translation>
    </message>
    <message>
      <source>bias</source>
      <translation>偏置</translation>
    </message>
    <message>
      <source>(d) ALiBi bias against distance</source>
      <translation>(d) ALiBi 偏置随距离变化</translation>
    </message>
    <message>
      <source>−mₕ·|⁠i − j|</source>
      <translation>−mₕ·|⁠i − j|</translation>
    </message>
    <message>
      <source>(e) Content qᵢ·kⱼ/√d</source>
      <translation>(e) 内容项 qᵢ·kⱼ/√d</translation>
    </message>
    <message>
      <source>(e) Bias b(r(i, j))</source>
      <translation>(e) 偏置 b(r(i, j))</translation>
    </message>
    <message>
      <source>(e) Sum</source>
      <translation>(e) 总和</translation>
    </message>
    <message>
      <source>(e) softmax over j</source>
      <translation>(e) 对 j 做 softmax</translation>
    </message>
    <message>
      <source>attention</source>
      <translation>注意力</translation>
    </message>
    <message>
      <source>Distances &amp;&amp; table</source>
      <translation>距离与编码表</translation>
    </message>
    <message>
      <source>Score formula</source>
      <translation>得分公式</translation>
    </message>
    <message>
      <source>causal</source>
      <translation>因果</translation>
    </message>
    <message>
      <source>symmetric</source>
      <translation>对称</translation>
    </message>
    <message>
      <source>(a) Relative distance j − i{0}</source>
      <translation>(a) 相对距离 j − i{0}</translation>
    </message>
    <message>
      <source>(b) Sinusoidal relative table R[{0}, j, :]</source>
      <translation>(b) 正弦相对编码表 R[{0}, j, :]</translation>
    </message>
    <message>
      <source>(d) ALiBi head {0}, {1}</source>
      <translation>(d) ALiBi 头 {0}，{1}</translation>
    </message>
    <message>
      <source>Shaw clip k</source>
      <translation>Shaw 截断 k</translation>
    </message>
    <message>
      <source>query position i</source>
      <translation>查询位置 i</translation>
    </message>
    <message>
      <source>ALiBi head h</source>
      <translation>ALiBi 头 h</translation>
    </message>
    <message>
      <source>seed (q, k, tables)</source>
      <translation>随机种子（q、k、表）</translation>
    </message>
    <message>
      <source>, clipped to ±{0}</source>
      <translation>，截断到 ±{0}</translation>
    </message>
    <message>
      <source>(e) Bias: {0}</source>
      <translation>(e) 偏置：{0}</translation>
    </message>
    <message>
      <source>Score formula (e) over positions 0 … {0} with seeded random q, k (d = {1}).</source>
      <translation>得分公式 (e) 覆盖位置 0 … {0}，使用带种子的随机 q、k（d = {1}）。</translation>
    </message>
    <message>
      <source>{0} buckets, max_distance {1}</source>
      <translation>{0} 个桶，max_distance {1}</translation>
    </message>
    <message>
      <source>head {0}</source>
      <translation>头 {0}</translation>
    </message>
    <message>
      <source>RoPE</source>
      <translation>RoPE</translation>
    </message>
    <message>
      <source>RoPE q = 1, head_dim {d}</source>
      <translation>RoPE q = 1，head_dim {d}</translation>
    </message>
    <message>
      <source>RoPE random q: mean</source>
      <translation>RoPE 随机 q：均值</translation>
    </message>
    <message>
      <source>Rotates each channel pair of q and k by m·θᵢ; q·k depends on j − i only</source>
      <translation>把 q 与 k 的每对通道旋转 m·θᵢ；q·k 只取决于 j − i</translation>
    </message>
    <message>
      <source>Fair; extended by interpolation, NTK, YaRN, Llama 3 scaling, LongRoPE</source>
      <translation>一般；可用插值、NTK、YaRN、Llama 3 缩放、LongRoPE 扩展</translation>
    </message>
    <message>
      <source>Low: an element-wise rotation of q and k in every layer</source>
      <translation>低：每层对 q、k 做逐元素旋转</translation>
    </message>
    <message>
      <source>LLaMA, Qwen, Mistral, DeepSeek, Gemma</source>
      <translation>LLaMA、Qwen、Mistral、DeepSeek、Gemma</translation>
    </message>
    <message>
      <source>RoPE random q: mean ± std</source>
      <translation>RoPE 随机 q：均值 ± 标准差</translation>
    </message>
    <message>
      <source>(d) Long-term decay of q·k</source>
      <translation>(d) q·k 的远程衰减</translation>
    </message>
    <message>
      <source> (sampled)</source>
      <translation>（采样）</translation>
    </message>
    <message>
      <source>(a) Angle m·θᵢ mod 2π</source>
      <translation>(a) 角度 m·θᵢ mod 2π</translation>
    </message>
    <message>
      <source>completes a turn within seq_len</source>
      <translation>在 seq_len 内转满一圈</translation>
    </message>
    <message>
      <source>never completes a turn within seq_len</source>
      <translation>在 seq_len 内转不满一圈</translation>
    </message>
    <message>
      <source>unrotated q·k</source>
      <translation>未旋转的 q·k</translation>
    </message>
    <message>
      <source>m = {0}, n = {1}, t = {2}: RoPE score {3:.10g}; largest |⁠score(t) − score(0)| over the t drawn: {4:.2e}; unrotated q·k = {5:.10g}</source>
      <translation>m = {0}，n = {1}，t = {2}：RoPE 得分 {3:.10g}；所画各 t 中最大的 |⁠score(t) − score(0)|：{4:.2e}；未旋转的 q·k = {5:.10g}</translation>
    </message>
    <message>
      <source>q = k = 1 (RoFormer §3.4.3)</source>
      <translation>q = k = 1（RoFormer §3.4.3）</translation>
    </message>
    <message>
      <source>random q, k: mean</source>
      <translation>随机 q、k：均值</translation>
    </message>
    <message>
      <source>interleaved</source>
      <translation>交错布局</translation>
    </message>
    <message>
      <source>half</source>
      <translation>对半布局</translation>
    </message>
    <message>
      <source>(g) log₁₀ |⁠cos − cos₆₄⁠|{0}</source>
      <translation>(g) log₁₀ |⁠cos − cos₆₄⁠|{0}</translation>
    </message>
    <message>
      <source>random q, k: mean ± std</source>
      <translation>随机 q、k：均值 ± 标准差</translation>
    </message>
    <message>
      <source>Precision views: over {0:,} positions each pixel shows the error at its first position (rounding errors have no closed-form mean)</source>
      <translation>精度视图：超过 {0:,} 个位置时，每个像素显示其首个位置的误差（舍入误差没有闭式均值）</translation>
    </message>
    <message>
      <source>{0} holds every angle shown exactly: no error to draw</source>
      <translation>{0} 能精确表示所显示的每个角度：没有误差可画</translation>
    </message>
    <message>
      <source>{0} cannot hold {1} of the positions (above {2:g} for float16): they are left out of the precision views</source>
      <translation>{0} 无法表示其中 {1} 个位置（float16 超过 {2:g}）：精度视图中已略去</translation>
    </message>
    <message>
      <source>, first t of each pixel</source>
      <translation>，取每个像素的第一个 t</translation>
    </message>
    <message>
      <source>{0}: max |⁠cos error|{1}</source>
      <translation>{0}：最大 |⁠cos 误差|{1}</translation>
    </message>
    <message>
      <source>seq_len = {0}</source>
      <translation>seq_len = {0}</translation>
    </message>
    <message>
      <source>Pair i of q at position m turns by m·θ&lt;sub&gt;i&lt;/sub&gt;, θ&lt;sub&gt;i&lt;/sub&gt; = θ&lt;sup&gt;−2i/d&lt;/sup&gt;; (R&lt;sub&gt;m&lt;/sub&gt;q)·(R&lt;sub&gt;n&lt;/sub&gt;k) depends on n − m only.</source>
      <translation>位置 m 处 q 的第 i 对通道旋转 m·θ&lt;sub&gt;i&lt;/sub&gt;，θ&lt;sub&gt;i&lt;/sub&gt; = θ&lt;sup&gt;−2i/d&lt;/sup&gt;；(R&lt;sub&gt;m&lt;/sub&gt;q)·(R&lt;sub&gt;n&lt;/sub&gt;k) 只取决于 n − m。</translation>
    </message>
    <message>
      <source>pair {0}&lt;br&gt;θ = {1:.3g}, λ = {2}</source>
      <translation>通道对 {0}&lt;br&gt;θ = {1:.3g}，λ = {2}</translation>
    </message>
    <message>
      <source>interleaved (Meta LLaMA, GPT-J)</source>
      <translation>交错（Meta LLaMA、GPT-J）</translation>
    </message>
    <message>
      <source>half (GPT-NeoX, Hugging Face)</source>
      <translation>对半（GPT-NeoX、Hugging Face）</translation>
    </message>
    <message>
      <source>random q, k (seeded)</source>
      <translation>随机 q、k（带种子）</translation>
    </message>
    <message>
      <source>Play</source>
      <translation>播放</translation>
    </message>
    <message>
      <source>position m</source>
      <translation>位置 m</translation>
    </message>
    <message>
      <source>value</source>
      <translation>值</translation>
    </message>
    <message>
      <source>(e) Wavelength 2π/θᵢ per pair</source>
      <translation>(e) 每对通道的波长 2π/θᵢ</translation>
    </message>
    <message>
      <source>(c) Relative invariance: shift both by t</source>
      <translation>(c) 相对不变性：两者同时平移 t</translation>
    </message>
    <message>
      <source>shift t</source>
      <translation>平移 t</translation>
    </message>
    <message>
      <source>relative distance n − m</source>
      <translation>相对距离 n − m</translation>
    </message>
    <message>
      <source>(f) Pair of each channel</source>
      <translation>(f) 每个通道所属的通道对</translation>
    </message>
    <message>
      <source>channel</source>
      <translation>通道</translation>
    </message>
    <message>
      <source>pair</source>
      <translation>通道对</translation>
    </message>
    <message>
      <source>(f) Permutation P: half channel j holds interleaved channel P[j]</source>
      <translation>(f) 置换 P：对半布局通道 j 存放交错布局通道 P[j]</translation>
    </message>
    <message>
      <source>half-layout channel j</source>
      <translation>对半布局通道 j</translation>
    </message>
    <message>
      <source>(g) log₁₀ |⁠cos − cos₆₄⁠|</source>
      <translation>(g) log₁₀ |⁠cos − cos₆₄⁠|</translation>
    </message>
    <message>
      <source>log₁₀ error</source>
      <translation>log₁₀ 误差</translation>
    </message>
    <message>
      <source>(g) Worst |⁠cos − cos₆₄⁠| over pairs</source>
      <translation>(g) 各通道对中最大的 |⁠cos − cos₆₄⁠|</translation>
    </message>
    <message>
      <source>|⁠error|</source>
      <translation>|⁠误差|</translation>
    </message>
    <message>
      <source>Tables &amp;&amp; spectrum</source>
      <translation>编码表与频谱</translation>
    </message>
    <message>
      <source>Rotation</source>
      <translation>旋转</translation>
    </message>
    <message>
      <source>Invariance &amp;&amp; decay</source>
      <translation>不变性与衰减</translation>
    </message>
    <message>
      <source>Layouts</source>
      <translation>布局</translation>
    </message>
    <message>
      <source>Precision</source>
      <translation>精度</translation>
    </message>
    <message>
      <source>angle m·θ mod 2π</source>
      <translation>角度 m·θ mod 2π</translation>
    </message>
    <message>
      <source>auto: spread evenly</source>
      <translation>自动：均匀分布</translation>
    </message>
    <message>
      <source>Pause</source>
      <translation>暂停</translation>
    </message>
    <message>
      <source>seed</source>
      <translation>随机种子</translation>
    </message>
    <message>
      <source>table</source>
      <translation>编码表</translation>
    </message>
    <message>
      <source>rotation panels</source>
      <translation>旋转面板数</translation>
    </message>
    <message>
      <source>pairs shown</source>
      <translation>显示的通道对</translation>
    </message>
    <message>
      <source>query position m</source>
      <translation>查询位置 m</translation>
    </message>
    <message>
      <source>key position n</source>
      <translation>键位置 n</translation>
    </message>
    <message>
      <source>precision dtype</source>
      <translation>精度类型</translation>
    </message>
    <message>
      <source>(b) Each chosen pair of q rotated over positions 0 … m</source>
      <translation>(b) q 的每个所选通道对在位置 0 … m 上的旋转</translation>
    </message>
    <message>
      <source>first channel of the pair</source>
      <translation>通道对的第一个通道</translation>
    </message>
    <message>
      <source>second channel of the pair</source>
      <translation>通道对的第二个通道</translation>
    </message>
    <message>
      <source>pairs must be in [0, {0}]; others are skipped</source>
      <translation>通道对须在 [0, {0}] 内；其余已跳过</translation>
    </message>
    <message>
      <source>pairs: at most {0} panels; the first {0} are shown</source>
      <translation>通道对最多显示 {0} 个面板，只显示前 {0} 个</translation>
    </message>
    <message>
      <source>masked</source>
      <translation>已掩码</translation>
    </message>
    <message>
      <source>posenc-gui — positional encodings</source>
      <translation>posenc-gui — 位置编码</translation>
    </message>
    <message>
      <source>Shared parameters</source>
      <translation>共享参数</translation>
    </message>
    <message>
      <source>Loaded session {name}</source>
      <translation>已载入会话 {name}</translation>
    </message>
    <message>
      <source>Saved session {name}</source>
      <translation>已保存会话 {name}</translation>
    </message>
    <message>
      <source>Loaded {0}: {1}</source>
      <translation>已载入 {0}：{1}</translation>
    </message>
    <message>
      <source>no change</source>
      <translation>无变化</translation>
    </message>
    <message>
      <source>No config.json imported yet: File → Open config.json…</source>
      <translation>尚未导入 config.json：文件 → 打开 config.json…</translation>
    </message>
    <message>
      <source>{0}: frame already on screen, nothing computed</source>
      <translation>{0}：画面已是此帧，未重新计算</translation>
    </message>
    <message>
      <source>{0}: compute {1:.1f} ms</source>
      <translation>{0}：计算 {1:.1f} 毫秒</translation>
    </message>
    <message>
      <source>{0}: computation failed — {1}</source>
      <translation>{0}：计算失败 — {1}</translation>
    </message>
    <message>
      <source>device: {0}</source>
      <translation>设备：{0}</translation>
    </message>
  </context>
</TS>
