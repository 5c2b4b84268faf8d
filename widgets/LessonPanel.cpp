// SPDX-License-Identifier: GPL-3.0-or-later
#include "LessonPanel.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace specdec::gui {

LessonPanel::LessonPanel(QWidget *parent)
    : QWidget(parent)
    , m_list(new QListWidget(this))
    , m_text(new QTextBrowser(this))
    , m_apply(new QPushButton(this))
    , m_previous(new QPushButton(this))
    , m_next(new QPushButton(this))
    , m_stepLabel(new QLabel(this))
{
    m_list->setWordWrap(true);
    m_list->setMaximumHeight(m_list->fontMetrics().height() * 9);
    m_text->setMinimumHeight(m_text->fontMetrics().height() * 8);
    m_text->setOpenLinks(false);
    m_stepLabel->setAlignment(Qt::AlignCenter);
    auto *steps = new QHBoxLayout;
    steps->addWidget(m_previous);
    steps->addWidget(m_stepLabel, 1);
    steps->addWidget(m_next);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_list);
    layout->addWidget(m_apply);
    layout->addWidget(m_text, 1);
    layout->addLayout(steps);
    connect(m_list, &QListWidget::currentRowChanged, this, [this](int row) {
        m_step = 0;
        showLesson(row);
    });
    connect(m_list, &QListWidget::itemActivated, this, [this] { emit applyRequested(currentLesson()); });
    connect(m_apply, &QPushButton::clicked, this, [this] {
        if (currentLesson() >= 0)
            emit applyRequested(currentLesson());
    });
    connect(m_previous, &QPushButton::clicked, this, &LessonPanel::previousStep);
    connect(m_next, &QPushButton::clicked, this, &LessonPanel::nextStep);
    retranslate();
}

void LessonPanel::setLessons(const QList<Entry> &lessons)
{
    const int current = std::max(0, currentLesson());
    const int step = m_step;
    m_lessons = lessons;
    m_list->blockSignals(true);
    m_list->clear();
    for (const Entry &e : lessons)
        m_list->addItem(e.title);
    m_list->setCurrentRow(std::min(current, static_cast<int>(lessons.size()) - 1));
    m_list->blockSignals(false);
    m_step = step; // a new language keeps the lesson and the step
    showLesson(currentLesson());
}

int LessonPanel::currentLesson() const
{
    return m_list->currentRow();
}

void LessonPanel::setCurrentLesson(int index)
{
    m_list->setCurrentRow(index);
    m_step = 0;
    showLesson(index);
}

void LessonPanel::setCurrentStep(int step)
{
    m_step = step;
    showLesson(currentLesson());
}

void LessonPanel::nextStep()
{
    setCurrentStep(m_step + 1);
}

void LessonPanel::previousStep()
{
    setCurrentStep(m_step - 1);
}

QString LessonPanel::explanationText() const
{
    return m_text->toPlainText();
}

void LessonPanel::showLesson(int index)
{
    if (index < 0 || index >= m_lessons.size()) {
        m_text->clear();
        m_stepLabel->clear();
        m_previous->setEnabled(false);
        m_next->setEnabled(false);
        return;
    }
    const Entry &e = m_lessons[index];
    const int steps = static_cast<int>(e.steps.size());
    m_step = std::clamp(m_step, 0, std::max(0, steps - 1));
    QString html = QStringLiteral("<h3>%1</h3><p><i>%2</i></p>").arg(e.title.toHtmlEscaped(), e.summary.toHtmlEscaped());
    for (int i = 0; i <= m_step && i < steps; ++i)
        html += QStringLiteral("<p%1><b>%2.</b> %3</p>")
                    .arg(i == m_step ? QString() : QStringLiteral(" style=\"color: gray\""))
                    .arg(i + 1)
                    .arg(e.steps[i].toHtmlEscaped());
    m_text->setHtml(html);
    m_stepLabel->setText(tr("Step %1 of %2").arg(m_step + 1).arg(steps));
    m_previous->setEnabled(m_step > 0);
    m_next->setEnabled(m_step + 1 < steps);
}

void LessonPanel::retranslate()
{
    m_apply->setText(tr("Run this lesson"));
    m_previous->setText(tr("◀ Step"));
    m_next->setText(tr("Step ▶"));
    showLesson(currentLesson());
}

void LessonPanel::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

} // namespace specdec::gui
